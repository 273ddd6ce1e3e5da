import { readFile } from 'node:fs/promises';

/** The first ```ts block of a README: its smallest example. */
export async function smallestExample(readmePath: string): Promise<string> {
  const text = await readFile(readmePath, 'utf8');
  const match = /^```ts\n([\s\S]*?)^```$/m.exec(text);
  if (!match?.[1]) throw new Error(`${readmePath} has no \`\`\`ts block; its smallest example must be one.`);
  return match[1];
}
