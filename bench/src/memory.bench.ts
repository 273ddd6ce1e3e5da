/**
 * Long-term memory (issue 50), in one run:
 * 1. Recall latency, p50 and p99 over QUERIES lexical queries, on SqliteMemoryStore and
 *    PostgresMemoryStore with 1k, 10k and 100k stored messages of one resource (and as many of
 *    another, so the index holds more than the resource searched): what one turn's recall does with
 *    the defaults (top 3 by the store's full-text index, then the message before and after each hit).
 *    Floor: the same full-text match done by hand on a bare table (SQLite FTS5 on the texts alone;
 *    PostgreSQL a GIN-indexed tsvector column), same rows, same query.
 *    And Memory's own index of the resource in this process (what a turn does with it: the store's
 *    message version, then search and reads around in memory).
 * 2. What memory adds to a turn: an agent on a scripted model that answers in 20 ms, without memory
 *    and with memory on SQLite (10k messages stored for the resource), median of TURNS turns each.
 * 3. Bytes stored per message (SQLite pages, PostgreSQL relation sizes), without and with 256-float vectors.
 * Command: `cd bench && node --conditions=@skein/source --import tsx src/memory.bench.ts`
 * (BENCH_MEMORY_SIZES=1000,10000,100000; BENCH_QUERIES=300; BENCH_TURNS=40).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Agent, LexicalIndex, type MemoryMessage, type MemoryStore } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { Memory } from '@skein/memory';
import { PostgresMemoryStore } from '@skein/session-postgres';
import { startPostgresServer } from '@skein/session-postgres/testing';
import { SqliteMemoryStore } from '@skein/session-sqlite';
import { table } from './measure.js';

const SIZES = (process.env['BENCH_MEMORY_SIZES'] ?? '1000,10000,100000').split(',').map(Number);
const QUERIES = Number(process.env['BENCH_QUERIES'] ?? 300);
const TURNS = Number(process.env['BENCH_TURNS'] ?? 40);

const WORDS =
  'order invoice charge refund card payment delivery parcel address late broken screen cable desk headphones return week month twice duplicate account password email receipt discount coupon voucher shipping courier warehouse size colour replace exchange warranty battery charger keyboard mouse monitor chair lamp'.split(
    ' ',
  );
let seed = 7;
const rand = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const sentence = (): string =>
  Array.from({ length: 12 }, () => WORDS[rand(WORDS.length)]).join(' ') + ` order ${rand(5000)}`;
const at = new Date().toISOString();
function messages(count: number, withVectors = false): MemoryMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    thread: `t${Math.floor(i / 20)}`,
    seq: i,
    role: i % 2 === 0 ? 'user' : 'assistant',
    text: sentence(),
    at,
    ...(withVectors ? { embedding: Array.from({ length: 256 }, () => rand(1000) / 1000) } : {}),
  }));
}
const queries = (): string[][] =>
  Array.from({ length: QUERIES }, () => [0, 1, 2].map(() => WORDS[rand(WORDS.length)] as string));
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] as number;

async function fill(store: MemoryStore, resource: string, count: number, withVectors = false): Promise<void> {
  for (let i = 0; i < count; i += 1000)
    await store.putMessages(
      resource,
      messages(Math.min(1000, count - i), withVectors).map((m, j) => ({
        ...m,
        seq: i + j,
        thread: `t${Math.floor((i + j) / 20)}`,
      })),
    );
}

/** One turn's recall with the defaults: top 3, then the message before and after each hit. */
async function recallOnce(store: MemoryStore, terms: string[]): Promise<number> {
  const hits = (await store.searchText?.('ann', terms, { limit: 3, excludeThread: 'now' })) ?? [];
  await Promise.all(hits.map((h) => store.readAround('ann', h.message.thread, h.message.seq, 1, 1)));
  return hits.length;
}

async function timeAll(run: (terms: string[]) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const qs = queries();
  for (const q of qs.slice(0, 20)) await run(q);
  const times: number[] = [];
  for (const q of qs) {
    const t = performance.now();
    await run(q);
    times.push(performance.now() - t);
  }
  return { p50: pct(times, 0.5), p99: pct(times, 0.99) };
}

const rows: (string | number)[][] = [
  ['store', 'messages', 'recall p50 ms', 'recall p99 ms', 'floor p50 ms', 'floor p99 ms'],
];
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-bench-memory-'));
const server = await startPostgresServer();
try {
  for (const size of SIZES) {
    const file = path.join(dir, `m${size}.db`);
    const store = new SqliteMemoryStore({ path: file, synchronous: 'NORMAL' });
    await fill(store, 'ann', size);
    await fill(store, 'bob', size);
    const floorDb = new Database(path.join(dir, `floor${size}.db`));
    floorDb.exec("CREATE VIRTUAL TABLE f USING fts5(text, tokenize='porter unicode61')");
    const insert = floorDb.prepare('INSERT INTO f (text) VALUES (?)');
    floorDb.transaction(() => {
      for (const m of messages(size)) insert.run(m.text);
    })();
    const floorQuery = floorDb.prepare('SELECT rowid, text FROM f WHERE f MATCH ? ORDER BY rank LIMIT 3');
    const recall = await timeAll((terms) => recallOnce(store, terms));
    const floor = await timeAll(async (terms) => floorQuery.all(terms.map((t) => `"${t}"`).join(' OR ')));
    // What Memory does per turn with its index of the resource in this process: the store's message
    // version (the check that no other writer moved it), then search and reads around, in memory.
    const index = new LexicalIndex(await store.listMessages('ann'));
    const cached = await timeAll(async (terms) => {
      await store.messageVersion?.('ann');
      const hits = index.search(terms, { limit: 3, excludeThread: 'now' });
      return hits.map((h) => index.around(h.message.thread, h.message.seq, 1, 1));
    });
    for (const [name, r] of [
      ['sqlite', recall],
      ['sqlite, index in process', cached],
    ] as const)
      rows.push([name, size, r.p50.toFixed(2), r.p99.toFixed(2), floor.p50.toFixed(2), floor.p99.toFixed(2)]);
    floorDb.close();
    await store.close();

    const connectionString = await server.createDatabase(`mem${size}`);
    const pgStore = new PostgresMemoryStore({ connectionString, poolSize: 4 });
    await fill(pgStore, 'ann', size);
    await fill(pgStore, 'bob', size);
    const pool = new pg.Pool({ connectionString, max: 2 });
    await pool.query(
      "CREATE TABLE f (text text, tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED)",
    );
    await pool.query('CREATE INDEX ON f USING gin (tsv)');
    await pool.query('INSERT INTO f (text) SELECT unnest($1::text[])', [messages(size).map((m) => m.text)]);
    await pool.query('ANALYZE');
    const pgRecall = await timeAll((terms) => recallOnce(pgStore, terms));
    const pgFloor = await timeAll((terms) =>
      pool.query(
        "SELECT text, ts_rank(tsv, q) r FROM f, to_tsquery('english', $1) q WHERE tsv @@ q ORDER BY r DESC LIMIT 3",
        [terms.join(' | ')],
      ),
    );
    rows.push([
      'postgres',
      size,
      pgRecall.p50.toFixed(2),
      pgRecall.p99.toFixed(2),
      pgFloor.p50.toFixed(2),
      pgFloor.p99.toFixed(2),
    ]);
    await pool.end();
    await pgStore.close();
  }
  table(rows);

  // 2. The cost memory adds to a turn (20 ms scripted model).
  const model = (): ScriptedModel =>
    new ScriptedModel([{ text: 'Your order 42 is on its way.', delayMs: 20 }], { loop: true, record: false });
  const plain = new Agent({ model: model(), retryStrategy: null });
  const variants: [string, Agent, Memory | undefined][] = [['no memory', plain, undefined]];
  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    const turnStore = new SqliteMemoryStore({ path: path.join(dir, `turns-${synchronous}.db`), synchronous });
    await fill(turnStore, 'ann', 10_000);
    const memory = new Memory({ store: turnStore });
    variants.push([
      `memory on SQLite (synchronous ${synchronous}), 10k messages`,
      new Agent({ model: model(), memory, retryStrategy: null }),
      memory,
    ]);
  }
  const turnTimes = variants.map(() => [] as number[]);
  for (let i = 0; i < TURNS; i++) {
    for (const [v, [, agent, memory]] of variants.entries()) {
      agent.messages = [];
      const t = performance.now();
      await agent.invoke(
        'Where is my parcel for order 42? It is late.',
        memory ? { memory: { resource: 'ann', thread: `turn${i}` } } : {},
      );
      turnTimes[v]?.push(performance.now() - t);
    }
  }
  const base = pct(turnTimes[0] ?? [], 0.5);
  table([
    ['turn (20 ms model)', 'median ms', 'x no memory'],
    ...variants.map(([name], v) => [
      name,
      pct(turnTimes[v] ?? [], 0.5).toFixed(2),
      (pct(turnTimes[v] ?? [], 0.5) / base).toFixed(3),
    ]),
  ]);
  for (const [, , memory] of variants) await memory?.close();

  // 3. Bytes per message.
  const bytes: (string | number)[][] = [['store', 'vectors', 'bytes/message']];
  for (const withVectors of [false, true]) {
    const file = path.join(dir, `bytes-${withVectors}.db`);
    const s = new SqliteMemoryStore({ path: file });
    await fill(s, 'ann', 10_000, withVectors);
    await s.close();
    const db = new Database(file);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const used = Number(db.pragma('page_count', { simple: true })) * Number(db.pragma('page_size', { simple: true }));
    db.close();
    bytes.push(['sqlite', withVectors ? '256 floats' : 'none', Math.round(used / 10_000)]);
    const connectionString = await server.createDatabase(`bytes${withVectors}`);
    const ps = new PostgresMemoryStore({ connectionString });
    await fill(ps, 'ann', 10_000, withVectors);
    const pool = new pg.Pool({ connectionString, max: 1 });
    await pool.query('VACUUM ANALYZE');
    const size = await pool.query<{ b: string }>("SELECT pg_total_relation_size('skein_memory_messages') AS b");
    bytes.push(['postgres', withVectors ? '256 floats' : 'none', Math.round(Number(size.rows[0]?.b) / 10_000)]);
    await pool.end();
    await ps.close();
  }
  table(bytes);
} finally {
  await server.stop();
  await fs.rm(dir, { recursive: true, force: true });
}
