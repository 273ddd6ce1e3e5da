/**
 * Many conversations in one process: 10, 100 and 1,000 concurrent conversations, each an Agent with
 * one tool on a ScriptedModel that answers after a fixed delay (MODEL_DELAY_MS per model call), each
 * running TURNS user turns one after another (a turn: the model asks for the tool, the tool runs, the
 * model answers: two model calls, four messages). Stores: none (the loop alone), FileSessionManager
 * (one session per conversation, one storage dir), SQLite (one database file, synchronous=FULL, group
 * commit) and PostgreSQL (a server from @skein/session-postgres/testing, fsync on; 100 and 1,000
 * conversations), both one shared repository, and S3SessionManager on radosgw (loopback) when it
 * starts (S3 at 10 and 100 conversations only, to stay within the time budget).
 * Reported per level: messages/s (messages stored, or appended without a store, over wall time), p50 /
 * p99 of the latency skein adds to a turn (turn time minus the scripted model delays), and heap per idle
 * conversation (after all turns, gc'd, agents and session managers alive; run with --expose-gc).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { Agent, RepositorySessionManager, tool, type SessionManager, type SessionRepository } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager } from '@skein/session-file';
import { S3SessionManager } from '@skein/session-s3';
import { startRgwServer, type RgwServer } from '@skein/session-s3/testing';
import { PostgresSessionRepository } from '@skein/session-postgres';
import { startPostgresServer } from '@skein/session-postgres/testing';
import { SqliteSessionRepository } from '@skein/session-sqlite';
import { table } from './measure.js';

const MODEL_DELAY_MS = 20;
const TURNS = 3;
const MESSAGES_PER_TURN = 4;
const LEVELS = (process.env['BENCH_CONVERSATIONS'] ?? '10,100,1000').split(',').map(Number);
const gc = (globalThis as { gc?: () => void }).gc;

const lookup = tool({
  name: 'lookup_order',
  description: 'Looks an order up',
  inputSchema: z.object({ orderId: z.string() }),
  callback: ({ orderId }) => ({ orderId, status: 'shipped', items: 2 }),
});

function model(): ScriptedModel {
  return new ScriptedModel(
    [
      {
        text: 'Let me look that up.',
        toolUses: [{ name: 'lookup_order', input: { orderId: 'A-1042' } }],
        delayMs: MODEL_DELAY_MS,
      },
      { text: 'Your order A-1042 has shipped; two items are on their way.', delayMs: MODEL_DELAY_MS },
    ],
    { loop: true, record: false },
  );
}

const sessionOn = (repository: SessionRepository, sessionId: string): SessionManager =>
  new RepositorySessionManager({ sessionId, repository });

function heap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

interface LevelResult {
  messagesPerSec: number;
  /** CPU time of this process per turn (user + system), µs: load from other processes does not inflate it much. */
  cpuUsPerTurn: number;
  p50: number;
  p99: number;
  bytesPerConversation: number;
  wallMs: number;
}

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;

/** Runs `n` conversations at once; `store(i)` gives conversation i its session manager (or none). */
async function level(n: number, store: (i: number) => SessionManager | undefined): Promise<LevelResult> {
  const before = heap();
  const agents = Array.from({ length: n }, (_, i) => {
    const sessionManager = store(i);
    return new Agent({
      name: 'support',
      model: model(),
      tools: [lookup],
      systemPrompt: 'You help customers with orders.',
      ...(sessionManager ? { sessionManager } : {}),
    });
  });
  const added: number[] = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    agents.map(async (agent, i) => {
      for (let t = 0; t < TURNS; t++) {
        const turnStart = performance.now();
        const result = await agent.invoke(`Conversation ${i}, turn ${t}: where is my order A-1042?`);
        if (result.stopReason !== 'end_turn') throw new Error(`conversation ${i}: ${result.stopReason}`);
        added.push(performance.now() - turnStart - 2 * MODEL_DELAY_MS);
      }
    }),
  );
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const bytesPerConversation = (heap() - before) / n;
  added.sort((a, b) => a - b);
  if (agents.some((a) => a.messages.length !== TURNS * MESSAGES_PER_TURN))
    throw new Error('a conversation lost messages');
  return {
    messagesPerSec: (n * TURNS * MESSAGES_PER_TURN) / (wallMs / 1000),
    cpuUsPerTurn: (used.user + used.system) / (n * TURNS),
    p50: pct(added, 0.5),
    p99: pct(added, 0.99),
    bytesPerConversation,
    wallMs,
  };
}

const rows: (string | number)[][] = [
  [
    'store',
    'conversations',
    'messages/s',
    'added p50 ms',
    'added p99 ms',
    'CPU µs/turn',
    'KB/idle conversation',
    'wall s',
  ],
];
const push = (storeName: string, n: number, r: LevelResult): void => {
  rows.push([
    storeName,
    n,
    Math.round(r.messagesPerSec),
    r.p50,
    r.p99,
    Math.round(r.cpuUsPerTurn),
    (r.bytesPerConversation / 1024).toFixed(1),
    (r.wallMs / 1000).toFixed(1),
  ]);
  console.log(`  done: ${storeName} x ${n}`);
};

await level(20, () => undefined); // warm up: JIT, zod, p-queue (loaded on the first tool batch)
for (const n of LEVELS) push('none', n, await level(n, () => undefined));

/**
 * The file floor: `n` writers at once, each in its own directory writing TURNS * MESSAGES_PER_TURN
 * messages one after another, each a durable single-file write (temp, write, fsync, rename, fsync
 * dir) of a message's size. What the disk gives concurrent writers; ms.
 */
async function durableFloor(dir: string, n: number): Promise<number> {
  const text = JSON.stringify({
    message: { role: 'assistant', content: [{ text: 'Your order A-1042 has shipped; two items are on their way.' }] },
    message_id: 3,
    created_at: new Date().toISOString(),
  });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: n }, async (_, w) => {
      const own = path.join(dir, `w${w}`);
      await fs.mkdir(own, { recursive: true });
      for (let i = 0; i < TURNS * MESSAGES_PER_TURN; i++) {
        const tmp = path.join(own, `.m${i}.tmp`);
        const h = await fs.open(tmp, 'wx');
        await h.writeFile(text);
        await h.sync();
        await h.close();
        await fs.rename(tmp, path.join(own, `m${i}.json`));
        const d = await fs.open(own, 'r');
        await d.sync();
        await d.close();
      }
    }),
  );
  return performance.now() - start;
}

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-conversations-bench-'));
try {
  await level(10, (i) => new FileSessionManager({ sessionId: `warm-${i}`, storageDir: root }));
  for (const n of LEVELS) {
    const managers: FileSessionManager[] = [];
    const r = await level(n, (i) => {
      const m = new FileSessionManager({ sessionId: `c${n}-${i}`, storageDir: root });
      managers.push(m);
      return m;
    });
    push('file', n, r);
    for (const m of managers) await m.close();
    const floorMs = await durableFloor(path.join(root, `floor-${n}`), n);
    rows.push([
      'floor: durable writes, one dir per writer',
      n,
      Math.round((n * TURNS * MESSAGES_PER_TURN) / (floorMs / 1000)),
      '-',
      '-',
      '-',
      '-',
      (floorMs / 1000).toFixed(1),
    ]);
  }
} finally {
  await fs.rm(root, { recursive: true, force: true });
}

// The SQL stores: one repository (one database) shared by every conversation, as a server keeps it,
// each conversation its own session. SQLite commits what is ready in one tick together (group commit).
const sqlRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-conversations-sql-'));
try {
  for (const n of LEVELS) {
    const repository = new SqliteSessionRepository({ path: path.join(sqlRoot, `c${n}.db`) });
    push('sqlite (one database, group commit)', n, await level(n, (i) => sessionOn(repository, `c${n}-${i}`)));
    rows.push(['  sqlite write transactions', n, repository.stats.transactions, '-', '-', '-', '-', '-']);
    await repository.close();
  }
  if (process.env['BENCH_POSTGRES'] !== '0') {
    const pgServer = await startPostgresServer();
    try {
      const connectionString = await pgServer.createDatabase('conversations');
      for (const n of LEVELS.filter((x) => x >= 100)) {
        const repository = new PostgresSessionRepository({ connectionString, schema: `c${n}`, poolSize: 20 });
        push('postgres (pool of 20)', n, await level(n, (i) => sessionOn(repository, `c${n}-${i}`)));
        await repository.close();
      }
    } finally {
      await pgServer.stop();
    }
  }
} finally {
  await fs.rm(sqlRoot, { recursive: true, force: true });
}

let server: RgwServer | undefined;
if (process.env['BENCH_S3'] !== '0') {
  try {
    server = await startRgwServer();
  } catch (error) {
    console.log(`(S3 skipped: radosgw did not start: ${error instanceof Error ? error.message : String(error)})`);
  }
}
if (server) {
  try {
    const bucket = await server.createBucket('skein-conversations');
    const client = server.client();
    for (const n of LEVELS.filter((x) => x <= 100)) {
      const r = await level(
        n,
        (i) => new S3SessionManager({ sessionId: `c${n}-${i}`, bucket, prefix: 'bench', client }),
      );
      push('s3 (loopback radosgw, one shared client)', n, r);
    }
    client.destroy();
  } finally {
    await server.stop();
  }
}

console.log(
  `\n${TURNS} turns per conversation, ${MESSAGES_PER_TURN} messages per turn, model delay ${MODEL_DELAY_MS} ms per call (2 calls a turn).`,
);
console.log(
  'added = turn time minus the scripted model delays: the loop, the tool, persistence and waiting for the event loop.',
);
table(rows);
