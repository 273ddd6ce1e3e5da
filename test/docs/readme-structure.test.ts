import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { smallestExample } from './readme-example.js';

// What every package README must have, checked without running anything (readme-examples.e2e.test.ts
// type-checks and runs the examples): an install line naming every package its smallest example
// imports, and an Errors section.

const root = fileURLToPath(new URL('../../', import.meta.url));

/** `@scope/name/sub` -> `@scope/name`, `zod/v4` -> `zod`; undefined for node: builtins and relative paths. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || specifier.startsWith('.')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

async function published(): Promise<string[]> {
  const dirs = await readdir(join(root, 'packages'));
  const readmes: string[] = ['README.md'];
  for (const dir of dirs.sort()) {
    const manifest = JSON.parse(await readFile(join(root, 'packages', dir, 'package.json'), 'utf8')) as {
      private?: boolean;
    };
    if (!manifest.private) readmes.push(`packages/${dir}/README.md`);
  }
  return readmes;
}

const readmes = await published();

describe.each(readmes)('%s', (readme) => {
  it('installs every package its smallest example imports', async () => {
    const text = await readFile(join(root, readme), 'utf8');
    const example = await smallestExample(join(root, readme));
    const imported = new Set(
      [...example.matchAll(/^import [^;]*? from '([^']+)';/gms)].flatMap((m) => packageOf(m[1] ?? '') ?? []),
    );
    const installed = new Set(
      [...text.matchAll(/^npm install (.+)$/gm)].flatMap((m) =>
        (m[1] ?? '')
          .replace(/#.*$/, '')
          .split(/\s+/)
          .filter((word) => word && !word.startsWith('-'))
          .map((word) => packageOf(word.replace(/@[^@/]*$/, '')) ?? word),
      ),
    );
    expect(
      [...imported].filter((name) => !installed.has(name)),
      'imported but not in an `npm install` line',
    ).toEqual([]);
  });

  it.skipIf(readme === 'README.md')('has an Errors section', async () => {
    expect(await readFile(join(root, readme), 'utf8')).toMatch(/^## Errors$/m);
  });
});
