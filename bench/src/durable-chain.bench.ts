/**
 * Durable steps against LangGraph: a chain of NODES nodes, one model call per node (models that
 * answer at once), on SQLite on disk, each step committed before the next starts: skein's Graph on
 * SqliteSessionRepository, and LangGraph's StateGraph (MessagesAnnotation) with its own SQLite
 * checkpointer (@langchain/langgraph-checkpoint-sqlite, `durability: 'sync'`; its default `'async'`
 * also shown). Both at synchronous=FULL, then both at NORMAL, in the same run, in BENCH_ROUNDS
 * paired rounds (default 5; each round runs every setting once, a fresh database each, after one
 * warm-up run in that database). Per node: the run's wall time / NODES; without a store (skein: no
 * session; LangGraph: no checkpointer); the bytes of records (skein: the `doc` of every row of the
 * session; LangGraph: checkpoint + metadata blobs and pending-write values of the thread) and of WAL
 * appended by the run; beside the floor, one `BEGIN IMMEDIATE; INSERT <skein's bytes per node>;
 * COMMIT` at the same durability (median of 15).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import Database from 'better-sqlite3';
import { SqliteSessionRepository } from '@skein/session-sqlite';
import { langGraphRun, NODES, skeinRun } from './durable-chain-graphs.js';
import { table } from './measure.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const walBytes = async (db: string): Promise<number> => (await fs.stat(`${db}-wal`).catch(() => ({ size: 0 }))).size;

/** Per node: the run's ms, bytes of records and WAL, and where the record bytes go (by kind). */
type Sample = { ms: number; records: number; wal: number; parts: Record<string, number> };

/** The WAL frames appended since byte `from`, per node, by the b-tree (table or index) their page belongs to (dbstat). */
async function walPages(file: string, from: number): Promise<Record<string, number>> {
  const wal = await fs.readFile(`${file}-wal`);
  const pageSize = wal.readUInt32BE(8);
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT pageno, name FROM dbstat').all() as { pageno: number; name: string }[];
  db.close();
  const owner = new Map(rows.map((r) => [r.pageno, r.name]));
  const pages: Record<string, number> = {};
  for (let at = Math.max(32, from); at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    const name = `WAL pages: ${owner.get(wal.readUInt32BE(at)) ?? 'other (freelist)'}`;
    pages[name] = (pages[name] ?? 0) + 1 / NODES;
  }
  return pages;
}

/** skein's record bytes of session `id` by kind, the history's step entries split by field (per node). */
function skeinParts(db: Database.Database, id: string): Record<string, number> {
  const sum = (sql: string, ...args: string[]) => (db.prepare(sql).get(...args) as { n: number }).n / NODES;
  const parts: Record<string, number> = {
    'messages (skein_messages)': sum(
      'SELECT coalesce(sum(length(doc)), 0) AS n FROM skein_messages WHERE session_id = ?',
      id,
    ),
    'member records (skein_agents)': sum(
      'SELECT coalesce(sum(length(doc)), 0) AS n FROM skein_agents WHERE session_id = ?',
      id,
    ),
    'state document (skein_multi_agents)': sum(
      'SELECT coalesce(sum(length(doc)), 0) AS n FROM skein_multi_agents WHERE session_id = ? AND multi_agent_id = ?',
      id,
      id,
    ),
    'history and shape docs (skein_multi_agents)': sum(
      'SELECT coalesce(sum(length(doc)), 0) AS n FROM skein_multi_agents WHERE session_id = ? AND multi_agent_id <> ?',
      id,
      id,
    ),
    'node entries (skein_nodes)': sum(
      'SELECT coalesce(sum(length(doc)), 0) AS n FROM skein_nodes WHERE session_id = ? AND multi_agent_id = ?',
      id,
      id,
    ),
    'transitions (skein_transitions)': sum(
      'SELECT coalesce(sum(length(doc)), 0) AS n FROM skein_transitions WHERE session_id = ?',
      id,
    ),
    'session row (skein_sessions)': sum(
      'SELECT coalesce(sum(length(doc)), 0) AS n FROM skein_sessions WHERE session_id = ?',
      id,
    ),
  };
  const steps = db.prepare('SELECT doc FROM skein_nodes WHERE session_id = ? AND multi_agent_id <> ?').all(id, id) as {
    doc: string;
  }[];
  const fields = new Map<string, number>();
  for (const { doc } of steps) {
    const entry = JSON.parse(doc) as Record<string, unknown>;
    let inner = 0;
    for (const [key, value] of Object.entries(entry)) {
      const bytes = JSON.stringify(value).length;
      inner += bytes;
      fields.set(key, (fields.get(key) ?? 0) + bytes);
    }
    fields.set('(keys, punctuation)', (fields.get('(keys, punctuation)') ?? 0) + doc.length - inner);
  }
  for (const [key, bytes] of fields) parts[`history step entry: ${key}`] = bytes / NODES;
  return parts;
}
const SKEIN_TABLES = [
  'skein_sessions',
  'skein_agents',
  'skein_messages',
  'skein_multi_agents',
  'skein_nodes',
  'skein_transitions',
];

async function skeinSample(dir: string, sync: 'FULL' | 'NORMAL', round: number): Promise<Sample> {
  const file = path.join(dir, `skein-${sync}-${round}.db`);
  const repository = new SqliteSessionRepository({ path: file, synchronous: sync });
  await skeinRun(repository, 'warm');
  const walBefore = await walBytes(file);
  const ms = await skeinRun(repository, 'measured');
  const wal = (await walBytes(file)) - walBefore;
  const pages = await walPages(file, walBefore);
  await repository.close();
  const db = new Database(file, { readonly: true });
  let records = 0;
  for (const t of SKEIN_TABLES)
    records += (
      db.prepare(`SELECT coalesce(sum(length(doc)), 0) AS n FROM ${t} WHERE session_id = ?`).get('measured') as {
        n: number;
      }
    ).n;
  const parts = { ...skeinParts(db, 'measured'), ...pages };
  db.close();
  return { ms, records: records / NODES, wal: wal / NODES, parts };
}

async function langGraphSample(
  dir: string,
  sync: 'FULL' | 'NORMAL',
  round: number,
  durability: string,
): Promise<Sample> {
  const file = path.join(dir, `langgraph-${sync}-${durability}-${round}.db`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${sync}`);
  const saver = new SqliteSaver(db);
  await langGraphRun(saver, 'warm', durability);
  const walBefore = await walBytes(file);
  const ms = await langGraphRun(saver, 'measured', durability);
  const wal = (await walBytes(file)) - walBefore;
  const pages = await walPages(file, walBefore);
  const row = (sql: string) => (db.prepare(sql).get('measured') as { n: number }).n;
  const parts = {
    'checkpoint blobs (checkpoints)': row(
      'SELECT coalesce(sum(length(checkpoint)), 0) AS n FROM checkpoints WHERE thread_id = ?',
    ),
    'metadata blobs (checkpoints)': row(
      'SELECT coalesce(sum(length(metadata)), 0) AS n FROM checkpoints WHERE thread_id = ?',
    ),
    'pending writes (writes.value)': row('SELECT coalesce(sum(length(value)), 0) AS n FROM writes WHERE thread_id = ?'),
  };
  db.close();
  const records = Object.values(parts).reduce((a, b) => a + b, 0);
  for (const key of Object.keys(parts)) parts[key as keyof typeof parts] /= NODES;
  return { ms, records: records / NODES, wal: wal / NODES, parts: { ...parts, ...pages } };
}

/** One transaction of `bytes` at `sync`: median ms of 15. */
function floorMs(dir: string, sync: string, bytes: number): number {
  const db = new Database(path.join(dir, `floor-${sync}-${Math.random()}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${sync}`);
  db.exec('CREATE TABLE floor (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO floor (doc) VALUES (?)');
  const samples: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    db.exec('BEGIN IMMEDIATE');
    insert.run('x'.repeat(bytes));
    db.exec('COMMIT');
    samples.push(performance.now() - t);
  }
  db.close();
  return median(samples);
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-durable-chain-'));
const settings = ['skein', 'LangGraph sync', 'LangGraph async (its default)'] as const;
const breakdown: (string | number)[][] = [['store', 'part of a node (record bytes; WAL pages)', 'per node']];
const rows: (string | number)[][] = [
  [
    'synchronous',
    'setting',
    'µs/node (range)',
    'no-store µs/node',
    'x LangGraph sync',
    'records B/node',
    'WAL B/node',
    'floor µs',
    'x floor',
  ],
];
try {
  for (const sync of ['FULL', 'NORMAL'] as const) {
    const got = new Map<string, Sample[]>(settings.map((s) => [s, []]));
    const bare = { skein: [] as number[], langgraph: [] as number[], floor: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      got.get('skein')?.push(await skeinSample(dir, sync, round));
      got.get('LangGraph sync')?.push(await langGraphSample(dir, sync, round, 'sync'));
      got.get('LangGraph async (its default)')?.push(await langGraphSample(dir, sync, round, 'async'));
      bare.skein.push(await skeinRun(undefined, `bare-${round}`));
      bare.langgraph.push(await langGraphRun(undefined, `bare-${round}`, 'sync'));
      const skeinBytes = median((got.get('skein') ?? []).map((s) => s.records));
      bare.floor.push(floorMs(dir, sync, Math.round(skeinBytes)));
      console.error(`  done: round ${round + 1} at ${sync}`);
    }
    if (sync === 'FULL')
      for (const setting of ['skein', 'LangGraph sync'])
        for (const [part, bytes] of Object.entries(got.get(setting)?.at(-1)?.parts ?? {}))
          breakdown.push([setting, part, part.startsWith('WAL') ? bytes.toFixed(2) : Math.round(bytes)]);
    const lgSync = median((got.get('LangGraph sync') ?? []).map((s) => s.ms));
    const floor = median(bare.floor);
    for (const [setting, samples] of got) {
      const ms = samples.map((s) => s.ms);
      const m = median(ms);
      rows.push([
        sync,
        setting,
        `${Math.round(m * 1000)} (${Math.round(Math.min(...ms) * 1000)}-${Math.round(Math.max(...ms) * 1000)})`,
        Math.round(median(setting === 'skein' ? bare.skein : bare.langgraph) * 1000),
        (m / lgSync).toFixed(2),
        Math.round(median(samples.map((s) => s.records))),
        `${Math.round(median(samples.map((s) => s.wal)))} (${(median(samples.map((s) => s.wal)) / 4120).toFixed(1)} pages)`,
        Math.round(floor * 1000),
        (m / floor).toFixed(2),
      ]);
    }
  }
} finally {
  await fs.rm(dir, { recursive: true, force: true });
}
console.log(`a chain of ${NODES} nodes, one model call each, SQLite on disk (${os.tmpdir()}), ${ROUNDS} paired rounds`);
table(rows);
console.log('\nWhere the record bytes of a node go (the last FULL round):');
table(breakdown);
