/**
 * What one graph step costs on SqliteSessionRepository, this tree's against other trees' (before/after
 * pairs in one run: BENCH_SQLITE_VARIANTS, made by bench/sqlite-variant.sh), at synchronous=FULL and
 * NORMAL. A step is the median interval between consecutive `nodeStart` events in the middle of a
 * chain of STEPS agents with scripted models that answer at once (as in sql-steps). Each of
 * BENCH_ROUNDS rounds (default 15) times the floor (one `BEGIN IMMEDIATE; INSERT 3,700 bytes; COMMIT`
 * at FULL, median of 9) and one chain per store, in alternating order; the table gives the medians of
 * the rounds' figures and of their ratios (with their range).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Agent, RepositorySessionManager, type SessionRepository } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { table } from './measure.js';
import { sqliteStores } from './sqlite-variants.js';

const STEPS = 12;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const spread = (xs: number[]): string =>
  `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;

async function stepMs(repository: SessionRepository, id: string): Promise<number> {
  const b = new GraphBuilder().setId(id);
  b.setSessionManager(new RepositorySessionManager({ sessionId: id, repository }));
  for (let i = 0; i < STEPS; i++) {
    const model = new ScriptedModel([{ text: `node ${i} did its part of the work` }], { loop: true, record: false });
    b.addNode(new Agent({ name: `n${i}`, model, retryStrategy: null }));
    if (i > 0) b.addEdge(`n${i - 1}`, `n${i}`);
  }
  const stamps: number[] = [];
  for await (const e of b.build().stream('Route this request.'))
    if (e.type === 'nodeStart') stamps.push(performance.now());
  return median(
    stamps
      .slice(1)
      .map((t, i) => t - (stamps[i] as number))
      .slice(1, -1),
  );
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-sqlite-pairs-'));
const floorDb = new Database(path.join(dir, 'floor.db'));
floorDb.pragma('journal_mode = WAL');
floorDb.pragma('synchronous = FULL');
floorDb.exec('CREATE TABLE floor (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)');
const insert = floorDb.prepare('INSERT INTO floor (doc) VALUES (?)');
const floor = (): number => {
  const xs: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t = performance.now();
    floorDb.exec('BEGIN IMMEDIATE');
    insert.run('x'.repeat(3_700));
    floorDb.exec('COMMIT');
    xs.push(performance.now() - t);
  }
  return median(xs);
};

const stores = await sqliteStores();
const rows: (string | number)[][] = [
  ['synchronous', 'store', 'ms/step (range)', 'x this tree (range)', 'x floor (range)'],
];
try {
  for (const sync of ['FULL', 'NORMAL'] as const) {
    const open = stores.map(
      ([name, Store]) => [name, new Store({ path: path.join(dir, `${name}-${sync}.db`), synchronous: sync })] as const,
    );
    const ms = new Map<string, number[]>(stores.map(([name]) => [name, []]));
    const floors: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      floors.push(floor());
      const order = r % 2 === 0 ? open : [...open].reverse();
      for (const [name, store] of order) ms.get(name)?.push(await stepMs(store, `r${r}`));
    }
    await Promise.all(open.map(([, store]) => store.close()));
    const mine = ms.get('this tree') ?? [];
    for (const [name, xs] of ms)
      rows.push([
        sync,
        name,
        spread(xs),
        spread(xs.map((x, i) => x / (mine[i] as number))),
        spread(xs.map((x, i) => x / (floors[i] as number))),
      ]);
    rows.push([sync, 'floor (one transaction, FULL)', spread(floors), '', '']);
  }
} finally {
  floorDb.close();
  await fs.rm(dir, { recursive: true, force: true });
}
console.log(`a graph step (chain of ${STEPS}), ${ROUNDS} paired rounds`);
table(rows);
