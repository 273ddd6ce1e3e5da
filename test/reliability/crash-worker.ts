/**
 * One process of a crash trial: builds a shape (crash-shapes.ts) on a FileSessionManager in `dir`
 * (or on the store its campaign gives it: trial-store.ts), runs or resumes it, and writes `result.json` to `dir`. Every committed transition
 * (or, for the agent, every stored message), every node start and every tool side effect is
 * appended, fsynced, to `dir/commits.log`, each process starting with an `epoch` line. Replay one
 * process by hand with
 * `node --conditions=@skein/source --import tsx test/reliability/crash-worker.ts <shape> <dir> <seed>`.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { buildShape, type Shape, type TrialSessionManager } from './crash-shapes.js';
import { workerSessionManager } from './trial-store.js';

const [shape, dir, seed] = process.argv.slice(2);
if (!shape || !dir || !seed || !['graph', 'swarm', 'agent'].includes(shape))
  throw new Error('usage: crash-worker.ts <graph|swarm|agent> <dir> <seed>');

function durableAppend(file: string, line: string): void {
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, `${line}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function sessionManager(): TrialSessionManager {
  return workerSessionManager(`trial-${shape}`, dir!);
}

/** A payment service that deduplicates by idempotency key: the first request with a key pays (durably). */
function payOnce(payments: string, key: string): boolean {
  mkdirSync(payments, { recursive: true });
  try {
    const fd = openSync(join(payments, key), 'wx');
    fsyncSync(fd);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

mkdirSync(dir, { recursive: true });
const budget = process.env['SKEIN_CRASH_BUDGET'];
const built = buildShape(
  shape as Shape,
  sessionManager(),
  Number(seed),
  (line) => durableAppend(join(dir, 'commits.log'), line),
  budget === undefined ? undefined : Number(budget),
  (key) => payOnce(join(dir, 'payments'), key),
);
durableAppend(join(dir, 'commits.log'), 'epoch'); // a new process: the lines after it are this process's
process.stdout.write('started\n');
const result = await built.run();
await built.close();
// A run its budget stopped: what it did is committed, and nothing of it may run again (side-effects.ts).
if (result.status === 'budgetExceeded' || result.status === 'budget_exceeded')
  durableAppend(join(dir, 'commits.log'), 'stopped');
writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
