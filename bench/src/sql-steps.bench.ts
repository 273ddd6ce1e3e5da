/**
 * What one orchestration step costs on the SQL stores, against one transaction that writes the same
 * bytes, in the same run: a graph node (a chain of STEPS agents) and a swarm handoff (a chain of
 * agents handing off), scripted models that answer at once, on SqliteSessionRepository
 * (synchronous=FULL, a file in os.tmpdir()) and PostgresSessionRepository (a server from
 * @skein/session-postgres/testing, fsync on), next to FileSessionRepository's figure.
 * A step's time is the median interval between consecutive `nodeStart` events in the middle of a
 * run. The disk's sync time drifts between seconds, so the floor is timed in the same round as the
 * step: each of BENCH_ROUNDS rounds (default 7) times the floor (median of 9 transactions), a run
 * without a store (`no session`) and a run on the store, back to back; the table gives the median of
 * the rounds' figures and of their ratios (with their range).
 * The floor is one write transaction of the step's bytes (the JSON of its writeBatch): SQLite
 * `BEGIN IMMEDIATE; INSERT; COMMIT` in another file of the same directory with the same pragmas;
 * PostgreSQL `BEGIN; INSERT; COMMIT` on one pooled connection; files: one durable single-file write
 * (temp, write, fsync, rename, fsync dir). Also: what SQLite itself takes for a step's rows written
 * by plain statements (sql-plain-step.ts), where a SQLite step's time goes (the records made but not
 * stored; SQLite with synchronous=NORMAL; FULL), the lower bound of a one-row step journal, and the
 * bytes each store keeps on disk per step.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  type SessionRepository,
  type SessionWrite,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { FileSessionRepository } from '@skein/session-file';
import { PostgresSessionRepository } from '@skein/session-postgres';
import { startPostgresServer } from '@skein/session-postgres/testing';
import { SqliteSessionRepository } from '@skein/session-sqlite';
import { Swarm } from '@skein/swarm';
import { table } from './measure.js';
import { journalStepMs, plainStepMs } from './sql-plain-step.js';

const STEPS = 12;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
type Run = { stream: (task: string) => AsyncIterable<{ type: string }> };
const scripted = (turn: ConstructorParameters<typeof ScriptedModel>[0][number]) =>
  new ScriptedModel([turn], { loop: true, record: false });
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function graph(repository: SessionRepository | undefined, id: string): Run {
  const b = new GraphBuilder().setId(id);
  if (repository) b.setSessionManager(new RepositorySessionManager({ sessionId: id, repository }));
  for (let i = 0; i < STEPS; i++) {
    b.addNode(
      new Agent({
        name: `n${i}`,
        model: scripted({ text: `node ${i} did its part of the work` }),
        retryStrategy: null,
      }),
    );
    if (i > 0) b.addEdge(`n${i - 1}`, `n${i}`);
  }
  return b.build();
}

function swarm(repository: SessionRepository | undefined, id: string): Run {
  const agents: Agent[] = [];
  for (let i = STEPS - 1; i >= 0; i--) {
    const next = agents[0];
    const turn = next
      ? { text: `agent ${i} passes on`, toolUses: [{ name: `transfer_to_agent_${i + 1}`, input: {} }] }
      : { text: 'the last agent answers' };
    agents.unshift(
      new Agent({
        model: scripted(turn),
        name: `agent_${i}`,
        retryStrategy: null,
        ...(next ? { handoffs: [next] } : {}),
      }),
    );
  }
  const sessionManager = repository ? new RepositorySessionManager({ sessionId: id, repository }) : undefined;
  return Swarm.fromAgent(agents[0] as Agent, {
    id,
    maxHandoffs: STEPS + 1,
    maxIterations: STEPS + 1,
    ...(sessionManager ? { sessionManager } : {}),
  });
}

/** The bytes each writeBatch call carries (the step's writes), recorded in `sizes`; the writes in `batches`. */
function measured(repository: SessionRepository, sizes: number[], batches: SessionWrite[][]): SessionRepository {
  return new Proxy(repository, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop !== 'writeBatch') return (value as (...a: unknown[]) => unknown).bind(target);
      return (sessionId: string, writes: SessionWrite[]) => {
        sizes.push(JSON.stringify(writes).length);
        batches.push(writes);
        return (value as (s: string, w: SessionWrite[]) => Promise<void>).call(target, sessionId, writes);
      };
    },
  });
}

/** ms per step: the median interval between nodeStarts in the middle of one run. */
async function stepMs(run: Run): Promise<number> {
  const stamps: number[] = [];
  for await (const event of run.stream('Route this request.'))
    if (event.type === 'nodeStart') stamps.push(performance.now());
  if (stamps.length !== STEPS) throw new Error(`expected ${STEPS} steps, saw ${stamps.length}`);
  return median(
    stamps
      .slice(1)
      .map((t, i) => t - (stamps[i] as number))
      .slice(1, -1),
  );
}

async function medianOf(make: (round: number) => Run): Promise<number> {
  const runs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) runs.push(await stepMs(make(r)));
  return median(runs);
}

/** The median of `xs` and its range, as text. */
const spread = (xs: number[]): string =>
  `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-sql-steps-'));
const server = await startPostgresServer();
const connectionString = await server.createDatabase('bench');
const rows: (string | number)[][] = [
  [
    'step',
    'store',
    'ms/step',
    'no-session ms/step',
    'bytes/step',
    'floor ms',
    'step / floor (range)',
    'persistence / floor (range)',
  ],
];
const plainRows: (string | number)[][] = [['step', 'writes', 'same rows, plain SQL ms', 'floor ms', 'plain / floor']];
const stored: (string | number)[][] = [['store', 'bytes on disk per step (graph)', 'what is counted']];
const parts: (string | number)[][] = [
  [
    'step',
    'no session',
    'records made, not stored',
    '+ SQLite writes (NORMAL)',
    '+ durable sync (FULL)',
    'floor',
    'one-row journal (plain SQL)',
  ],
];
/** A repository that makes no write of a step (its writeBatch stores nothing): what core's records cost. */
function recordsOnly(): SessionRepository {
  const memory = new InMemorySessionRepository();
  return new Proxy(memory, {
    get(target, prop) {
      if (prop === 'writeBatch') return async () => {};
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

// Floors: one transaction of `bytes` bytes.
const floorDb = new Database(path.join(dir, 'floor.db'));
floorDb.pragma('journal_mode = WAL');
floorDb.pragma('synchronous = FULL');
floorDb.exec('CREATE TABLE floor (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)');
const insert = floorDb.prepare('INSERT INTO floor (doc) VALUES (?)');
const sqliteFloor = (bytes: number): number => {
  const t = performance.now();
  floorDb.exec('BEGIN IMMEDIATE');
  insert.run('x'.repeat(bytes));
  floorDb.exec('COMMIT');
  return performance.now() - t;
};
const pool = new pg.Pool({ connectionString, max: 2 });
await pool.query('CREATE TABLE floor (id bigserial PRIMARY KEY, doc text NOT NULL)');
const pgFloor = async (bytes: number): Promise<number> => {
  const client = await pool.connect();
  const t = performance.now();
  await client.query('BEGIN');
  await client.query('INSERT INTO floor (doc) VALUES ($1)', ['x'.repeat(bytes)]);
  await client.query('COMMIT');
  const ms = performance.now() - t;
  client.release();
  return ms;
};
const fileFloor = async (bytes: number): Promise<number> => {
  const t = performance.now();
  const tmp = path.join(dir, `.floor-${Math.random()}.tmp`);
  const h = await fs.open(tmp, 'wx');
  await h.writeFile('x'.repeat(bytes));
  await h.sync();
  await h.close();
  await fs.rename(tmp, `${tmp}.json`);
  const d = await fs.open(dir, 'r');
  await d.sync();
  await d.close();
  return performance.now() - t;
};
const floorOf = async (
  floor: (bytes: number) => number | Promise<number>,
  bytes: number,
  times = 15,
): Promise<number> => {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push(await floor(bytes));
  return median(samples);
};

const sqlite = new SqliteSessionRepository({ path: path.join(dir, 'steps.db') });
const sqliteNormal = new SqliteSessionRepository({ path: path.join(dir, 'normal.db'), synchronous: 'NORMAL' });
const postgres = new PostgresSessionRepository({ connectionString, poolSize: 4 });
const files = new FileSessionRepository({ storageDir: path.join(dir, 'files') });
const stores: [string, SessionRepository, (bytes: number) => number | Promise<number>][] = [
  ['sqlite', sqlite, sqliteFloor],
  ['postgres', postgres, pgFloor],
  ['file', files, fileFloor],
];
const stepBytes = new Map<string, number>();
for (const [shape, build] of [
  ['graph node', graph],
  ['swarm handoff', swarm],
] as const) {
  await stepMs(build(undefined, 'warm'));
  const nones: number[] = [];
  for (const [name, repository, floor] of stores) {
    const sizes: number[] = [];
    const batches: SessionWrite[][] = [];
    await stepMs(build(measured(repository, sizes, batches), `${shape[0]}-${name}-warm`));
    // Files have no writeBatch: a step's bytes are the SQLite store's (the same records).
    if (sizes.length > 0) stepBytes.set(shape, median(sizes));
    const bytes = stepBytes.get(shape) ?? 0;
    const round = {
      floor: [] as number[],
      none: [] as number[],
      ms: [] as number[],
      step: [] as number[],
      kept: [] as number[],
    };
    for (let r = 0; r < ROUNDS; r++) {
      const floorMs = await floorOf(floor, bytes, 9);
      const noneMs = await stepMs(build(undefined, `none-${shape[0]}-${name}-${r}`));
      const ms = await stepMs(build(repository, `${shape[0]}-${name}-${r}`));
      round.floor.push(floorMs);
      round.none.push(noneMs);
      round.ms.push(ms);
      round.step.push(ms / floorMs);
      round.kept.push((ms - noneMs) / floorMs);
    }
    nones.push(...round.none);
    const ms = median(round.ms);
    const none = median(nones);
    if (name === 'sqlite') {
      // A step in the middle of a run: the batch whose size is the median.
      const step = batches.find((b) => JSON.stringify(b).length === bytes) ?? (batches[STEPS >> 1] as SessionWrite[]);
      const plain = await plainStepMs(dir, shape[0] as string, step);
      const sqliteFloorMs = await floorOf(sqliteFloor, bytes);
      plainRows.push([
        shape,
        step.length,
        plain.toFixed(2),
        sqliteFloorMs.toFixed(2),
        (plain / sqliteFloorMs).toFixed(2),
      ]);
      const records = await medianOf((r) => build(recordsOnly(), `${shape[0]}-records-${r}`));
      const normal = await medianOf((r) => build(sqliteNormal, `${shape[0]}-normal-${r}`));
      const journal = journalStepMs(dir, shape[0] as string, step);
      const diff = (a: number, b: number): string => `${(a - b).toFixed(2)} (${((a - b) / sqliteFloorMs).toFixed(2)}x)`;
      parts.push([
        shape,
        none.toFixed(2),
        diff(records, none),
        diff(normal, records),
        diff(ms, normal),
        sqliteFloorMs.toFixed(2),
        `${journal.toFixed(2)} (${(journal / sqliteFloorMs).toFixed(2)}x)`,
      ]);
    }
    rows.push([
      shape,
      name,
      ms.toFixed(2),
      none.toFixed(2),
      bytes,
      median(round.floor).toFixed(2),
      spread(round.step),
      spread(round.kept),
    ]);
    console.log(`  done: ${shape} on ${name}`);
  }
}

// Bytes kept per step: a fresh graph run of STEPS steps in a fresh store of each kind.
async function du(p: string): Promise<number> {
  const st = await fs.stat(p).catch(() => undefined);
  if (!st) return 0;
  if (!st.isDirectory()) return st.blocks * 512;
  let n = st.blocks * 512;
  for (const e of await fs.readdir(p)) n += await du(path.join(p, e));
  return n;
}
{
  const s = new SqliteSessionRepository({ path: path.join(dir, 'size.db') });
  await s.createSession({ session_id: 'warm', session_type: 'AGENT', created_at: '', updated_at: '' });
  const db = new Database(path.join(dir, 'size.db'));
  db.pragma('wal_checkpoint(TRUNCATE)');
  const before =
    (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  await stepMs(graph(s, 'size'));
  await s.close();
  db.pragma('wal_checkpoint(TRUNCATE)');
  const after =
    (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  db.close();
  stored.push(['sqlite', Math.round((after - before) / STEPS), 'database pages after a checkpoint (WAL folded in)']);
  const p = new PostgresSessionRepository({ connectionString, schema: 'size', poolSize: 2 });
  await p.createSession({ session_id: 'warm', session_type: 'AGENT', created_at: '', updated_at: '' });
  const sizeSql =
    "SELECT sum(pg_total_relation_size(c.oid))::float8 AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = 'size' AND c.relkind = 'r'";
  await pool.query('VACUUM');
  const pgBefore = Number((await pool.query(sizeSql)).rows[0].n);
  await stepMs(graph(p, 'size'));
  await p.close();
  const pgAfter = Number((await pool.query(sizeSql)).rows[0].n);
  stored.push([
    'postgres',
    Math.round((pgAfter - pgBefore) / STEPS),
    'tables, indexes and TOAST (pg_total_relation_size), dead row versions included',
  ]);
  const f = new FileSessionRepository({ storageDir: path.join(dir, 'size-files') });
  await stepMs(graph(f, 'size'));
  stored.push([
    'file',
    Math.round((await du(path.join(dir, 'size-files'))) / STEPS),
    'disk blocks of the session directory (du)',
  ]);
}

table(rows);
console.log('\nSQLite: the same rows written by plain statements (no skein code), against the floor:');
table(plainRows);
console.log('\nWhere a SQLite step goes, ms per step added by each part (x the floor):');
table(parts);
console.log('');
table(stored);
await Promise.all([sqlite.close(), sqliteNormal.close(), postgres.close(), pool.end()]);
floorDb.close();
await server.stop();
await fs.rm(dir, { recursive: true, force: true });
