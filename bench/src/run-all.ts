/**
 * Runs every `*.bench.ts` in this folder, one fresh process each (so one benchmark's heap and JIT
 * state do not colour the next), or only those whose name contains an argument: `npm run bench -- loop`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const run = spawnSync(
    process.execPath,
    ['--conditions=@skein/source', '--expose-gc', '--import', 'tsx', join(here, file)],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
