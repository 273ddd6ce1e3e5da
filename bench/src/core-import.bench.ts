/**
 * Time to `import '@skein/core'` in a fresh Node process (built package, no source condition), next to
 * importing nothing, median of 15 runs. Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from './measure.js';

const here = dirname(fileURLToPath(import.meta.url));

function importMs(specifier: string | undefined): number {
  const code = specifier
    ? `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`
    : 'const t = performance.now(); console.log(performance.now() - t);';
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: here, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`import of ${specifier} failed (did you run npm run build?):\n${out.stderr}`);
  return Number(out.stdout.trim());
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

const rows: (string | number)[][] = [['module', 'median import ms (fresh process)']];
for (const specifier of ['@skein/core', '@skein/core/testing', 'zod']) {
  rows.push([specifier, median(Array.from({ length: 15 }, () => importMs(specifier)))]);
}
rows.push(['(nothing)', median(Array.from({ length: 15 }, () => importMs(undefined)))]);
table(rows);
