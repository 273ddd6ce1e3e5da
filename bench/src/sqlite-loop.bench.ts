/**
 * Does SQLite traffic stall the other conversations of the process? IN_MEMORY conversations (an Agent
 * on InMemorySessionRepository, a ScriptedModel that answers after MODEL_DELAY_MS) run turn after
 * turn for WINDOW_MS; the latency skein adds to each of their turns (turn time minus the model's
 * delay) is recorded, p50 / p99, in three settings timed back to back in each of BENCH_ROUNDS rounds:
 * - `floor`: the in-memory conversations alone;
 * - `same conversations, InMemory store`: beside them, the SQLite setting's conversations on an
 *   InMemorySessionRepository (their CPU without a disk: what the last setting should cost at best);
 * - `on-loop FULL (hand-written)`: beside them, what the SQLite store did before its commits left the
 *   event loop, written by hand (`onLoopWriters`);
 * - `SqliteSessionRepository FULL (this tree)`: beside them, SQLITE_WRITERS conversations on one
 *   SqliteSessionRepository (synchronous=FULL, group commit) whose models answer after
 *   SQLITE_MODEL_DELAY_MS; and the same on each of BENCH_SQLITE_VARIANTS (other trees' store, made by
 *   bench/sqlite-variant.sh: before/after pairs in one run).
 * Also the event loop's delay (perf_hooks' monitorEventLoopDelay, p99 and max) and the SQLite writes
 * committed per second in each setting. The table gives the median of the rounds (and the range of p99).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { Agent, InMemorySessionRepository, RepositorySessionManager, type SessionRepository } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { table } from './measure.js';
import { type SqliteStore, sqliteStores } from './sqlite-variants.js';

const IN_MEMORY = Number(process.env['BENCH_IN_MEMORY'] ?? 20);
const SQLITE_WRITERS = Number(process.env['BENCH_SQLITE_WRITERS'] ?? 20);
const MODEL_DELAY_MS = 20;
const SQLITE_MODEL_DELAY_MS = 20;
const WINDOW_MS = Number(process.env['BENCH_WINDOW_MS'] ?? 2_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] as number;
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

const agentOn = (repository: SessionRepository, sessionId: string, delayMs: number): Agent =>
  new Agent({
    model: new ScriptedModel([{ text: 'Your order A-1042 has shipped; two items are on their way.', delayMs }], {
      loop: true,
      record: false,
    }),
    sessionManager: new RepositorySessionManager({ sessionId, repository }),
    retryStrategy: null,
  });

/** Runs the in-memory conversations for WINDOW_MS; the ms skein adds to each turn. */
async function inMemoryTurns(round: number, until: () => boolean): Promise<number[]> {
  const repository = new InMemorySessionRepository();
  const added: number[] = [];
  await Promise.all(
    Array.from({ length: IN_MEMORY }, async (_, i) => {
      const agent = agentOn(repository, `mem-${round}-${i}`, MODEL_DELAY_MS);
      for (let turn = 0; !until(); turn++) {
        if (turn % 8 === 0) agent.messages.splice(0); // keep the history short: every round does the same work
        const start = performance.now();
        await agent.invoke('Where is my order?');
        added.push(performance.now() - start - MODEL_DELAY_MS);
      }
    }),
  );
  return added;
}

/**
 * The old design by hand: SQLITE_WRITERS writers that each write two ~600-byte rows per
 * SQLITE_MODEL_DELAY_MS (as a conversation stores its user and assistant messages), group commit
 * (rows queued in one turn of the loop go in one transaction in a `setImmediate`), synchronous=FULL,
 * the COMMIT and its fsync on the loop.
 */
async function onLoopWriters(file: string, stop: () => boolean): Promise<number> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (doc) VALUES (?)');
  const doc = JSON.stringify({ message: { role: 'assistant', content: [{ text: 'x'.repeat(500) }] } });
  let queued: (() => void)[] = [];
  let writes = 0;
  const flush = (): void => {
    const done = queued;
    queued = [];
    db.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < done.length; i++) insert.run(doc);
    db.exec('COMMIT');
    writes += done.length;
    for (const resolve of done) resolve();
  };
  const write = () =>
    new Promise<void>((resolve) => {
      queued.push(resolve);
      if (queued.length === 1) setImmediate(flush);
    });
  await Promise.all(
    Array.from({ length: SQLITE_WRITERS }, async () => {
      while (!stop()) {
        await new Promise((resolve) => setTimeout(resolve, SQLITE_MODEL_DELAY_MS));
        await write();
        await write();
      }
    }),
  );
  db.close();
  return writes;
}

/** SQLITE_WRITERS conversations on one SqliteSessionRepository; the writes it committed. */
async function storeWriters(file: string, round: number, stop: () => boolean, Store?: SqliteStore): Promise<number> {
  const repository = Store ? new Store({ path: file }) : new InMemorySessionRepository();
  let writes = 0;
  const stored = new Proxy(repository, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (prop === 'createMessage') writes++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  await Promise.all(
    Array.from({ length: SQLITE_WRITERS }, async (_, i) => {
      const agent = agentOn(stored, `sql-${round}-${i}`, SQLITE_MODEL_DELAY_MS);
      while (!stop()) await agent.invoke('Where is my order?');
    }),
  );
  if (!(repository instanceof InMemorySessionRepository)) await repository.close();
  return writes;
}

const stores = await sqliteStores();
const SETTINGS: string[] = [
  'floor',
  'same conversations, InMemory store',
  'on-loop FULL (hand-written)',
  ...stores.map(([name]) => `SqliteSessionRepository FULL (${name})`),
];
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-sqlite-loop-'));
const results = new Map<
  string,
  { p50: number[]; p99: number[]; writes: number[]; loopP99: number[]; loopMax: number[] }
>(SETTINGS.map((s) => [s, { p50: [], p99: [], writes: [], loopP99: [], loopMax: [] }]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, setting] of SETTINGS.entries()) {
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      const end = performance.now() + WINDOW_MS;
      let stopped = false;
      const until = () => performance.now() > end;
      const stop = () => stopped;
      const file = path.join(dir, `r${round}-${index}.db`);
      const traffic =
        setting === 'floor'
          ? Promise.resolve(0)
          : setting.startsWith('on-loop')
            ? onLoopWriters(file, stop)
            : storeWriters(file, round, stop, stores.find(([name]) => setting.endsWith(`(${name})`))?.[1]);
      const turns = await inMemoryTurns(round, until);
      stopped = true;
      delay.disable();
      const writes = await traffic;
      const r = results.get(setting);
      r?.p50.push(pct(turns, 0.5));
      r?.p99.push(pct(turns, 0.99));
      r?.writes.push(writes / (WINDOW_MS / 1000));
      r?.loopP99.push(delay.percentile(99) / 1e6);
      r?.loopMax.push(delay.max / 1e6);
    }
  }
} finally {
  await fs.rm(dir, { recursive: true, force: true });
}
const floorP99 = median(results.get('floor')?.p99 ?? []);
const rows: (string | number)[][] = [
  [
    'setting',
    'in-memory p50 ms',
    'in-memory p99 ms (range)',
    'p99 / floor',
    'loop delay p99 ms',
    'loop delay max ms',
    'messages stored/s',
  ],
];
for (const [setting, r] of results) {
  rows.push([
    setting,
    median(r.p50).toFixed(3),
    `${median(r.p99).toFixed(3)} (${Math.min(...r.p99).toFixed(3)}-${Math.max(...r.p99).toFixed(3)})`,
    (median(r.p99) / floorP99).toFixed(2),
    median(r.loopP99).toFixed(2),
    median(r.loopMax).toFixed(2),
    Math.round(median(r.writes)),
  ]);
}
console.log(
  `${IN_MEMORY} in-memory conversations (model ${MODEL_DELAY_MS} ms) beside ${SQLITE_WRITERS} SQLite writers, ${WINDOW_MS} ms windows, ${ROUNDS} rounds`,
);
table(rows);
