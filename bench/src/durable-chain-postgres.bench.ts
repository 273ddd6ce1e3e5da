/**
 * Durable steps against LangGraph on PostgreSQL: the durable-chain workload (durable-chain-graphs.ts:
 * a chain of NODES nodes, one model call each) on one server from @skein/session-postgres/testing
 * (fsync on, synchronous_commit on), a database each: skein's Graph on PostgresSessionRepository, and
 * LangGraph with @langchain/langgraph-checkpoint-postgres's PostgresSaver (`durability: 'sync'`, and
 * its default 'async'), in BENCH_ROUNDS paired rounds (default 5; a warm-up run first in each
 * database). Per node: wall time / NODES; bytes of records (skein: the `doc` of the session's rows;
 * LangGraph: its checkpoint JSONB, blobs and pending writes of the thread); WAL bytes the run wrote
 * (pg_wal_lsn_diff around it); beside the floor, one `BEGIN; INSERT <skein's bytes per node>; COMMIT`
 * on a pooled connection (median of 15).
 */
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';
import { PostgresSessionRepository } from '@skein/session-postgres';
import { startPostgresServer } from '@skein/session-postgres/testing';
import { langGraphRun, NODES, skeinRun } from './durable-chain-graphs.js';
import { table } from './measure.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
type Sample = { ms: number; records: number; wal: number };

const server = await startPostgresServer();
const admin = new pg.Pool({ connectionString: await server.createDatabase('admin'), max: 1 });
const lsn = async (): Promise<string> => (await admin.query('SELECT pg_current_wal_lsn() AS l')).rows[0].l as string;
const walSince = async (from: string): Promise<number> =>
  Number((await admin.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS n', [from])).rows[0].n);
const bytesOf = async (pool: pg.Pool, sql: string): Promise<number> => Number((await pool.query(sql)).rows[0].n ?? 0);

async function skeinSample(): Promise<Sample> {
  const connectionString = await server.createDatabase('skein');
  const repository = new PostgresSessionRepository({ connectionString });
  await skeinRun(repository, 'warm');
  const from = await lsn();
  const ms = await skeinRun(repository, 'measured');
  const wal = await walSince(from);
  await repository.close();
  const pool = new pg.Pool({ connectionString, max: 1 });
  let records = 0;
  for (const t of [
    'skein_sessions',
    'skein_agents',
    'skein_messages',
    'skein_multi_agents',
    'skein_nodes',
    'skein_transitions',
  ])
    records += await bytesOf(pool, `SELECT sum(octet_length(doc)) AS n FROM ${t} WHERE session_id = 'measured'`);
  await pool.end();
  return { ms, records: records / NODES, wal: wal / NODES };
}

async function langGraphSample(durability: string): Promise<Sample> {
  const pool = new pg.Pool({ connectionString: await server.createDatabase('langgraph'), max: 4 });
  const saver = new PostgresSaver(pool);
  await saver.setup();
  await langGraphRun(saver, 'warm', durability);
  const from = await lsn();
  const ms = await langGraphRun(saver, 'measured', durability);
  const wal = await walSince(from);
  const where = "WHERE thread_id = 'measured'";
  const records =
    (await bytesOf(
      pool,
      `SELECT sum(octet_length(checkpoint::text) + octet_length(metadata::text)) AS n FROM checkpoints ${where}`,
    )) +
    (await bytesOf(pool, `SELECT sum(octet_length(blob)) AS n FROM checkpoint_blobs ${where}`)) +
    (await bytesOf(pool, `SELECT sum(octet_length(blob)) AS n FROM checkpoint_writes ${where}`));
  await pool.end();
  return { ms, records: records / NODES, wal: wal / NODES };
}

async function floorMs(bytes: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: await server.createDatabase('floor'), max: 1 });
  await pool.query('CREATE TABLE floor (id bigserial PRIMARY KEY, doc text NOT NULL)');
  const client = await pool.connect();
  const samples: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    await client.query('BEGIN');
    await client.query('INSERT INTO floor (doc) VALUES ($1)', ['x'.repeat(bytes)]);
    await client.query('COMMIT');
    samples.push(performance.now() - t);
  }
  client.release();
  await pool.end();
  return median(samples);
}

const settings = ['skein', 'LangGraph sync', 'LangGraph async (its default)'] as const;
const got = new Map<string, Sample[]>(settings.map((s) => [s, []]));
const floors: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    got.get('skein')?.push(await skeinSample());
    got.get('LangGraph sync')?.push(await langGraphSample('sync'));
    got.get('LangGraph async (its default)')?.push(await langGraphSample('async'));
    floors.push(await floorMs(Math.round(median((got.get('skein') ?? []).map((s) => s.records)))));
    console.error(`  done: round ${round + 1}`);
  }
} finally {
  await admin.end();
  await server.stop();
}
const lgSync = median((got.get('LangGraph sync') ?? []).map((s) => s.ms));
const floor = median(floors);
const rows: (string | number)[][] = [
  ['setting', 'µs/node (range)', 'x LangGraph sync', 'records B/node', 'WAL B/node', 'floor µs', 'x floor'],
];
for (const [setting, samples] of got) {
  const ms = samples.map((s) => s.ms);
  const m = median(ms);
  rows.push([
    setting,
    `${Math.round(m * 1000)} (${Math.round(Math.min(...ms) * 1000)}-${Math.round(Math.max(...ms) * 1000)})`,
    (m / lgSync).toFixed(2),
    Math.round(median(samples.map((s) => s.records))),
    Math.round(median(samples.map((s) => s.wal))),
    Math.round(floor * 1000),
    (m / floor).toFixed(2),
  ]);
}
console.log(`a chain of ${NODES} nodes, one model call each, PostgreSQL (fsync on), ${ROUNDS} paired rounds`);
table(rows);
