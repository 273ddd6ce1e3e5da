import { readFile } from 'node:fs/promises';

/** The first ```ts block of a README: its smallest example. */
export async function smallestExample(readmePath: string): Promise<string> {
  const text = await readFile(readmePath, 'utf8');
  const match = /^```ts\n([\s\S]*?)^```$/m.exec(text);
  if (!match?.[1]) throw new Error(`${readmePath} has no \`\`\`ts block; its smallest example must be one.`);
  return match[1];
}

/**
 * The file a test writes for an example: the prelude (what the README leaves to the reader, such
 * as `model`) with its imports aliased so they cannot clash with the example's, then the example.
 */
export function exampleModule(example: string, prelude: string | undefined): string {
  return prelude ? `${prelude.trim()}\n// ---- README example ----\n${example}` : example;
}
