/**
 * Bundles a package's JavaScript: one file per entry of its exports map (`dist/index.js`,
 * `dist/testing/index.js`, ...) plus the chunks they share, built by esbuild from the TypeScript
 * sources the entries' `@skein/source` condition names. tsc still checks the types and writes the
 * declarations (`emitDeclarationOnly`). Loading a package is then a few files instead of one per source
 * module: Node's ESM loader pays for every module it resolves, reads and links, and that, not the
 * code, was most of the time `import '@skein/core'` took.
 *
 *   node --import tsx ../../scripts/bundle-dist.ts      (a package's build, after `tsc -b`)
 *
 * Dependencies stay imports (`packages: 'external'`). Names are kept as written: the build fails when
 * two modules declare a class of the same name (esbuild would rename one, and error names and stored
 * conversation-manager names come from class names).
 */
import { build } from 'esbuild';
import { readFile, readdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';

interface ExportEntry {
  '@skein/source'?: string;
  default?: string;
}

const root = process.cwd();
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, ExportEntry | string>;
};

const entryPoints: Record<string, string> = {};
for (const entry of Object.values(pkg.exports)) {
  if (typeof entry === 'string' || !entry['@skein/source'] || !entry.default) continue;
  const out = relative('dist', entry.default).replace(/\.js$/, '');
  entryPoints[out] = entry['@skein/source'];
}

await checkClassNames(join(root, 'src'));
// Chunk names carry a hash of their content: the last build's would be left behind.
await rm(join(root, 'dist', 'chunks'), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

/** Fails when two source modules declare a class of the same name (the bundle would rename one). */
async function checkClassNames(dir: string): Promise<void> {
  const seen = new Map<string, string>();
  for (const file of await sources(dir)) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/^(?:export )?(?:abstract )?class (\w+)/gm)) {
      const name = match[1] as string;
      const other = seen.get(name);
      if (other) throw new Error(`bundle-dist: class ${name} is declared in ${other} and ${file}; rename one.`);
      seen.set(name, file);
    }
  }
}

async function sources(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const item of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) {
      if (item.name !== 'test-support') files.push(...(await sources(path)));
    } else if (item.name.endsWith('.ts') && !item.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}
