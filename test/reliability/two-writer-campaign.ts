/**
 * Two-writer campaign (issues 23 and 30): two processes restore one session (files, or S3 on the
 * radosgw), then write it: 5 agent turns each, or one Swarm run each. The `race` case starts both at
 * the same moment (seeded start offsets and model waits); `sequential` lets one finish and release
 * the session before the other's first write (the other goes on from a stale view unless the store
 * refuses it); `busy` is the race with a CPU-bound process beside the writers; `overlap` lets B
 * load while A holds the session, at a seeded point of A's work (before one of A's turns, which then
 * go on, or after the last one, before A gave the session up), and lets B write once A released it. Exactly one goes on; the other gets
 * `SessionConflictError`; the store holds the winner's writes and nothing of the loser's (a restore
 * never returns a turn its writer was told had failed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { messageText, type SessionRepository } from '@skein/core';
import { keyed } from './seeded.js';
import { storeEnv, storeName, trialRepository, type TrialStore } from './trial-store.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const worker = fileURLToPath(new URL('./two-writer-worker.ts', import.meta.url));
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const TURNS = 5;
const WRITER_TIMEOUT_MS = 300_000;

/** When the writers write: at once, one after the other, or at once on a busy machine. */
export type TwoWriterCase = 'race' | 'sequential' | 'busy' | 'overlap';
export const TWO_WRITER_CASES: readonly TwoWriterCase[] = ['race', 'sequential', 'busy', 'overlap'];

interface Outcome {
  outcome: string;
  turns: number;
  error?: string;
}

interface Writer {
  ready: Promise<void>;
  /** Resolves when the writer printed `text` (or exited). */
  printed(text: string): Promise<void>;
  /** Starts writing; `release`: and give the session up when done (else it waits for `release()`). */
  go(release: boolean): void;
  /** Goes on after `paused`. */
  continue(): void;
  release(): void;
  done: Promise<Outcome>;
}

function writer(dir: string, who: string, seed: number, env: NodeJS.ProcessEnv): Writer {
  const child = spawn(
    process.execPath,
    ['--conditions=@skein/source', '--import', tsx, worker, dir, who, String(seed)],
    { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  child.stdin.on('error', () => undefined); // a writer that failed early has closed its stdin
  let out = '';
  let err = '';
  let exited = false;
  const waiting: { text: string; resolve: () => void }[] = [];
  const check = (): void => {
    for (const w of [...waiting]) {
      if (!exited && !out.includes(`${w.text}\n`)) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  const printed = (text: string): Promise<void> =>
    new Promise((resolve) => {
      waiting.push({ text, resolve });
      check();
    });
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    check();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  // A writer that hangs (waiting for a line that never comes) is killed and reported, instead of stopping the campaign.
  const watchdog = setTimeout(() => child.kill('SIGKILL'), WRITER_TIMEOUT_MS);
  const done = new Promise<Outcome>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      exited = true;
      check();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) return resolve(JSON.parse(line) as Outcome);
      if (signal === 'SIGKILL') return resolve({ outcome: 'error', turns: 0, error: `Timeout: writer ${who} hung` });
      reject(new Error(`writer ${who} exited with ${code} without a report: ${err.slice(-2000)}`));
    });
  });
  return {
    ready: printed('ready'),
    printed,
    go: (release) => (release ? child.stdin.end('go\n') : child.stdin.write('go\n')),
    continue: () => child.stdin.write('continue\n'),
    release: () => child.stdin.end(),
    done,
  };
}

/** A process that keeps one core busy until it is killed (the busy-machine case). */
function burner(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  child.on('error', () => undefined);
  return child;
}

export interface TwoWriterReport {
  seed: number;
  outcomes: string[];
  violations: string[];
  replay: string;
}

/**
 * Runs both writers in the trial's case. `sequential`: a seeded one goes first and finishes (its
 * process exits) before the other goes. `overlap`: A goes and pauses before its turn k (seeded; k =
 * `turns`, half of the time: after its last turn); B loads; A goes on, gives the session up once
 * done, and B goes after A exited.
 */
async function runWriters(
  spawnWriter: (who: 'A' | 'B', env?: NodeJS.ProcessEnv) => Writer,
  seed: number,
  timing: TwoWriterCase,
  turns: number,
): Promise<[Outcome, Outcome]> {
  if (timing === 'overlap') {
    const roll = keyed(seed, 'overlap');
    const pauseAt = roll < 0.5 ? turns : Math.floor((roll - 0.5) * 2 * turns);
    const a = spawnWriter('A', { SKEIN_TWO_WRITERS_PAUSE: String(pauseAt) });
    await a.ready;
    a.go(false);
    await a.printed(pauseAt < turns ? 'paused' : `turn ${turns - 1}`);
    const b = spawnWriter('B');
    await b.ready;
    a.continue();
    a.release();
    await a.done;
    b.go(true);
    return Promise.all([a.done, b.done]);
  }
  const writers = { A: spawnWriter('A'), B: spawnWriter('B') };
  await Promise.all([writers.A.ready, writers.B.ready]);
  if (timing !== 'sequential') {
    writers.A.go(true);
    writers.B.go(true);
    return Promise.all([writers.A.done, writers.B.done]);
  }
  const [first, second] = keyed(seed, 'first') < 0.5 ? (['A', 'B'] as const) : (['B', 'A'] as const);
  writers[first].go(true);
  await writers[first].done;
  writers[second].go(true);
  return Promise.all([writers.A.done, writers.B.done]);
}

/** One trial on a fresh session (a fresh directory, or a fresh prefix of the bucket). */
export async function twoWriterTrial(
  seed: number,
  store?: TrialStore,
  mode: 'agent' | 'swarm' = 'agent',
  timing: TwoWriterCase = 'race',
): Promise<TwoWriterReport> {
  const dir = await mkdtemp(join(tmpdir(), `skein-two-writers-${seed}-`));
  const flag = store ? ` --store ${storeName(store)}` : '';
  const env = { ...process.env, SKEIN_TWO_WRITERS: mode, ...storeEnv(store, dir) };
  const violations: string[] = [];
  const busy = timing === 'busy' ? burner() : undefined;
  let a: Outcome;
  let b: Outcome;
  try {
    [a, b] = await runWriters(
      (who, extra) => writer(dir, who, seed, { ...env, ...extra }),
      seed,
      timing,
      mode === 'swarm' ? 1 : TURNS,
    );
  } finally {
    busy?.kill('SIGKILL');
  }
  const outcomes = [
    `A ${a.outcome}${a.error ? ` (${a.error.split(':')[0]})` : ''} after ${a.turns}`,
    `B ${b.outcome}${b.error ? ` (${b.error.split(':')[0]})` : ''} after ${b.turns}`,
  ];
  const winners = [a.outcome === 'ok' ? 'A' : undefined, b.outcome === 'ok' ? 'B' : undefined].filter(
    (w): w is string => w !== undefined,
  );
  if (winners.length !== 1) violations.push(`${winners.length} writers went on: ${outcomes.join(', ')}`);
  for (const [who, r] of [
    ['A', a],
    ['B', b],
  ] as const)
    if (r.outcome === 'error') violations.push(`writer ${who} failed with a non-conflict error: ${r.error}`);
  const repository = trialRepository(store, dir);
  const campaign = mode === 'swarm' ? 'two-writers-swarm' : 'two-writers';
  try {
    const winner = winners.length === 1 ? winners[0] : undefined;
    violations.push(...(await (mode === 'swarm' ? checkSwarm : checkAgent)(repository, winner)));
  } finally {
    await repository.close();
    if (violations.length === 0) await rm(dir, { recursive: true, force: true });
  }
  return {
    seed,
    outcomes,
    violations,
    replay: `npm run reliability -- --campaign ${campaign}${flag} --case ${timing} --seed ${seed} --trials 1`,
  };
}

/** The agent's stored messages are exactly the winner's turns, and its record was last written by the winner. */
async function checkAgent(repository: SessionRepository, winner: string | undefined): Promise<string[]> {
  const stored = (await repository.listMessages('race', 'default')).map((row) => messageText(row.message));
  if (winner === undefined) return [`stored: ${JSON.stringify(stored)}`];
  const violations: string[] = [];
  const expected = Array.from({ length: TURNS }, (_, i) => [`${winner}-${i}`, `${winner} answer ${i}`]).flat();
  if (JSON.stringify(stored) !== JSON.stringify(expected))
    violations.push(`stored ${JSON.stringify(stored)}, expected the winner's ${TURNS} turns only`);
  const writtenBy = (await repository.readAgent('race', 'default'))?.state?.['writer'];
  if (writtenBy !== winner) violations.push(`the stored agent record was last written by ${String(writtenBy)}`);
  return violations;
}

/** The stored run is exactly one run, the winner's: its task, its transitions, its node results. */
async function checkSwarm(repository: SessionRepository, winner: string | undefined): Promise<string[]> {
  const violations: string[] = [];
  const transitions = (await repository.readTransitions('race', 'desk')).map((t) => `${t.from}>${t.to}:${t.kind}`);
  const entries = await repository.readNodeEntries('race', 'desk');
  const expected = ['null>triage:start', 'triage>billing:handoff', 'billing>null:complete'];
  if (JSON.stringify(transitions) !== JSON.stringify(expected))
    violations.push(
      `stored transitions ${JSON.stringify(transitions)}, expected one run's ${JSON.stringify(expected)}`,
    );
  if (winner === undefined) return violations;
  const loser = winner === 'A' ? 'B' : 'A';
  if (!JSON.stringify(entries['run.task'] ?? {}).includes(`${winner}-task`))
    violations.push(`stored task ${JSON.stringify(entries['run.task'])} is not the winner's`);
  const stored = JSON.stringify(entries);
  if (stored.includes(`${loser}-task`) || stored.includes(`${loser} billing answer`))
    violations.push(`the loser's run is in the stored node entries: ${stored.slice(0, 500)}`);
  return violations;
}
