/**
 * @skein/evals: the runner's own cost, on scripted models (no network).
 * - µs per case of `evaluate()` (build the target, run the turns, answer the approval, observe tool
 *   calls, score with four scorers, summarize) against a hand-written loop that builds the same
 *   targets and runs the same turns, one case at a time, in the same process;
 * - 1,000 cases at concurrency 50: wall time and memory, against a plain p-queue of the same runs
 *   (no observation, scoring or results), with zero-latency models and with 20 ms per model call.
 * Run: cd /work/main && node --conditions=@skein/source --expose-gc --import tsx bench/src/evals.bench.ts
 * (`EVALS_BENCH_PER_CASE_ONLY=1` stops after the first table.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InMemorySessionRepository, RepositorySessionManager, type Prompt } from '@skein/core';
import { answer, evaluate, interrupts, toolCalls, trajectory, type CaseInput, type EvalSessions } from '@skein/evals';
import PQueue from 'p-queue';
import { CASES, shop } from './evals-shop.js';
import { table } from './measure.js';

const cases = (n: number): CaseInput[] =>
  Array.from({ length: n }, (_, i) => ({ ...(CASES[i % 2] as CaseInput), id: `c${i}` }));
const scorers = [trajectory(), toolCalls(), interrupts(), answer()];

/** The floor: the same target built and run by hand, approvals answered, nothing observed or scored. */
async function plainRun(c: CaseInput, sessions: EvalSessions | undefined, delayMs: number): Promise<void> {
  const sessionManager = sessions?.open(`plain.${c.id}`);
  const graph = shop(sessionManager, delayMs);
  let result = await graph.invoke(c.input as string);
  while (result.interrupts?.length) {
    const prompt: Prompt = result.interrupts.map((i) => ({
      interruptResponse: { interruptId: i.id, response: { approved: true } },
    }));
    result = await graph.invoke(prompt);
  }
  if (result.status !== 'completed') throw new Error(`plain run ${c.id}: ${result.status}`);
}

const memorySessions = (): EvalSessions => {
  const repository = new InMemorySessionRepository();
  return { open: (sessionId) => new RepositorySessionManager({ sessionId, repository }) };
};

/** Best of 7 rounds (after 3 warm-up calls) of `fn`: wall and CPU (user + system) µs per call. */
async function bestOf(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  for (let i = 0; i < 3; i++) await fn();
  let wall = Infinity;
  let cpu = Infinity;
  for (let r = 0; r < 7; r++) {
    const used = process.cpuUsage();
    const start = performance.now();
    await fn();
    wall = Math.min(wall, (performance.now() - start) * 1000);
    const d = process.cpuUsage(used);
    cpu = Math.min(cpu, d.user + d.system);
  }
  return { wall, cpu };
}

/**
 * µs per case, the runner vs the plain loop, one case at a time. CPU time is the steadier number on
 * a shared machine (other processes stretch the wall time of both alike).
 */
async function perCase(n: number, stored: boolean): Promise<(string | number)[]> {
  const list = cases(n);
  let round = 0;
  const floor = async (): Promise<void> => {
    const sessions = stored ? memorySessions() : undefined;
    for (const c of list) await plainRun(c, sessions, 0);
  };
  const runner = async (): Promise<void> => {
    const report = await evaluate({
      name: `r${round++}`,
      target: (ctx) => shop(ctx.sessionManager, 0),
      cases: list,
      scorers,
      concurrency: 1,
      sessions: stored ? memorySessions() : false,
    });
    if (!report.summary.passed) throw new Error('the runner bench cases must pass');
  };
  const f = await bestOf(floor);
  const r = await bestOf(runner);
  return [
    stored ? 'in-memory sessions' : 'no sessions',
    n,
    f.wall / n,
    r.wall / n,
    f.cpu / n,
    r.cpu / n,
    (r.cpu - f.cpu) / n,
    r.cpu / f.cpu,
  ];
}

const mb = (bytes: number): number => bytes / 1024 / 1024;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Wall time and memory of 1,000 cases at concurrency 50: the runner (results written to a file) vs a plain p-queue. */
async function thousand(delayMs: number): Promise<(string | number)[][]> {
  const list = cases(1000);
  const rows: (string | number)[][] = [];
  const measure = async (label: string, run: () => Promise<unknown>): Promise<void> => {
    gc();
    const before = process.memoryUsage();
    let peak = before.rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const used = process.cpuUsage();
    const t = performance.now();
    const kept = await run();
    const ms = performance.now() - t;
    clearInterval(sampler);
    gc();
    const after = process.memoryUsage();
    const cpu = process.cpuUsage(used);
    rows.push([
      `${label}, ${delayMs} ms/model call`,
      ms,
      (cpu.user + cpu.system) / 1000,
      mb(peak - before.rss),
      mb(after.heapUsed - before.heapUsed),
    ]);
    if (!kept) throw new Error('nothing kept');
  };
  await measure('plain p-queue', async () => {
    const queue = new PQueue({ concurrency: 50 });
    await Promise.all(list.map((c) => queue.add(() => plainRun(c, undefined, delayMs))));
    return true;
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'skein-evals-bench-'));
  try {
    await measure('evaluate(), results file', async () => {
      const report = await evaluate({
        target: (ctx) => shop(ctx.sessionManager, delayMs),
        cases: list,
        scorers,
        concurrency: 50,
        sessions: false,
        out: dir,
      });
      if (report.summary.counts.passed !== 1000) throw new Error('the 1,000 cases must pass');
      return report;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

console.log('The runner per case, one at a time (graph of 3 nodes; half the cases wait for an approval; 4 scorers)');
table([
  [
    'sessions',
    'cases',
    'plain wall µs',
    'evaluate() wall µs',
    'plain CPU µs',
    'evaluate() CPU µs',
    'overhead CPU µs',
    'CPU ratio',
  ],
  await perCase(100, false),
  await perCase(100, true),
]);
if (process.env['EVALS_BENCH_PER_CASE_ONLY']) process.exit(0);
console.log('\n1,000 cases at concurrency 50 (heap: retained after the run, the report included)');
table([
  ['run', 'wall ms', 'CPU ms', 'peak RSS growth MB', 'heap retained MB'],
  ...(await thousand(0)),
  ...(await thousand(20)),
]);
