/**
 * Two-writer campaign (issue 23): two processes restore one fresh session (files, or S3 on the
 * radosgw), then both append 5 turns at the same moment (seeded start offsets and model waits).
 * Exactly one goes on; the other gets `SessionConflictError`; the store holds the winner's turns
 * and nothing of the loser's (a restore never returns a turn its writer was told had failed).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { messageText } from '@skein/core';
import { storeEnv, storeName, trialRepository, type TrialStore } from './trial-store.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const worker = fileURLToPath(new URL('./two-writer-worker.ts', import.meta.url));
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const TURNS = 5;

interface Writer {
  ready: Promise<void>;
  go(): void;
  done: Promise<{ outcome: string; turns: number; error?: string }>;
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
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    if (out.includes('ready\n')) onReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const done = new Promise<{ outcome: string; turns: number; error?: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      onReady();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return reject(new Error(`writer ${who} exited with ${code} without a report: ${err.slice(-2000)}`));
      resolve(JSON.parse(line) as { outcome: string; turns: number; error?: string });
    });
  });
  return { ready, go: () => child.stdin.end('go\n'), done };
}

export interface TwoWriterReport {
  seed: number;
  outcomes: string[];
  violations: string[];
  replay: string;
}

/** One trial on a fresh session (a fresh directory, or a fresh prefix of the bucket). */
export async function twoWriterTrial(
  seed: number,
  store?: TrialStore,
  mode: 'agent' | 'swarm' = 'agent',
): Promise<TwoWriterReport> {
  const dir = await mkdtemp(join(tmpdir(), `skein-two-writers-${seed}-`));
  const flag = store ? ` --store ${storeName(store)}` : '';
  const env = { ...process.env, SKEIN_TWO_WRITERS: mode, ...storeEnv(store, dir) };
  const violations: string[] = [];
  const writers = { A: writer(dir, 'A', seed, env), B: writer(dir, 'B', seed, env) };
  await Promise.all([writers.A.ready, writers.B.ready]);
  writers.A.go();
  writers.B.go();
  const [a, b] = await Promise.all([writers.A.done, writers.B.done]);
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
  try {
    if (mode === 'swarm') {
      const transitions = (await repository.readTransitions('race', 'desk')).map((t) => `${t.from}>${t.to}:${t.kind}`);
      const task = (await repository.readNodeEntries('race', 'desk'))['run.task'];
      const expected = ['null>triage:start', 'triage>billing:handoff', 'billing>null:complete'];
      if (JSON.stringify(transitions) !== JSON.stringify(expected))
        violations.push(
          `stored transitions ${JSON.stringify(transitions)}, expected one run's ${JSON.stringify(expected)}`,
        );
      if (winners.length === 1 && !JSON.stringify(task ?? {}).includes(`${winners[0]}-task`))
        violations.push(`stored task ${JSON.stringify(task)} is not the winner's`);
      return {
        seed,
        outcomes,
        violations,
        replay: `npm run reliability -- --campaign two-writers-swarm${flag} --seed ${seed} --trials 1`,
      };
    }
    const stored = (await repository.listMessages('race', 'default')).map((row) => messageText(row.message));
    const expected =
      winners.length === 1
        ? Array.from({ length: TURNS }, (_, i) => [`${winners[0]}-${i}`, `${winners[0]} answer ${i}`]).flat()
        : [];
    if (winners.length === 1 && JSON.stringify(stored) !== JSON.stringify(expected))
      violations.push(`stored ${JSON.stringify(stored)}, expected the winner's ${TURNS} turns only`);
    if (winners.length !== 1) violations.push(`stored: ${JSON.stringify(stored)}`);
  } finally {
    await repository.close();
    if (violations.length === 0) await rm(dir, { recursive: true, force: true });
  }
  return {
    seed,
    outcomes,
    violations,
    replay: `npm run reliability -- --campaign two-writers${flag} --seed ${seed} --trials 1`,
  };
}
