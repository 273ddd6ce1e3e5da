/**
 * @skein/session-s3 against a real S3 server (Ceph radosgw from @skein/session-s3/testing, in memory, on
 * 127.0.0.1): messages/s written through S3SessionManager (an agent appending 10,000 messages, each a
 * conditional PutObject persisted before the next) against a hand-written floor of sequential
 * PutObject calls with the same bytes and the same If-None-Match (plain PutObject shown too); and restore time of 1k / 10k messages into an Agent against
 * a hand-written ListObjectsV2 + GetObject (same parallelism) + JSON.parse loop.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  Agent,
  MessageAddedEvent,
  NullConversationManager,
  serializeSessionData,
  type Message,
  type SessionMessage,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { S3SessionManager } from '@skein/session-s3';
import { startRgwServer } from '@skein/session-s3/testing';
import { table } from './measure.js';

const WRITES = 10_000;
const FLOOR_WRITES = 2_000;
const CONCURRENCY = 32; // S3SessionRepository's default readConcurrency
const TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(20); // ~900 bytes a message
const at = new Date().toISOString();

const prompt = (n: number): Message[] =>
  Array.from({ length: n - 1 }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: [{ text: `${i} ${TEXT}` }],
  }));
const rows = (n: number): SessionMessage[] =>
  [...prompt(n), { role: 'assistant' as const, content: [{ text: TEXT }] }].map((message, i) => ({
    message,
    message_id: i,
    redact_message: null,
    created_at: at,
    updated_at: at,
  }));

async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

/** The floor: the same bytes, PutObject one after another (conditional like the manager's, or plain); elapsed ms. */
async function floorWrites(from: number, n: number, conditional: boolean): Promise<number> {
  const docs = rows(from + n)
    .slice(from)
    .map((r) => serializeSessionData(r));
  const dir = conditional ? 'floor-conditional' : 'floor-plain';
  const t = performance.now();
  for (const [i, body] of docs.entries()) {
    const key = `${dir}/message_${from + i}.json`;
    await raw.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentType: 'application/json',
        ...(conditional ? { IfNoneMatch: '*' } : {}),
      }),
    );
  }
  return performance.now() - t;
}

const server = await startRgwServer();
const raw: S3Client = server.client();
const managers: S3SessionManager[] = [];
const manager = (sessionId: string): S3SessionManager => {
  const m = new S3SessionManager({ sessionId, bucket, prefix: 'bench', clientConfig: server.clientConfig() });
  managers.push(m);
  return m;
};
let bucket = '';

try {
  bucket = await server.createBucket('skein-bench');

  // Writes through the manager: one agent, WRITES messages, each persisted before the next.
  const checkpoints = new Map<number, number>();
  const marks = new Set([1_000, 2_500, 5_000, 7_500, WRITES]);
  const agent = new Agent({
    model: new ScriptedModel([TEXT], { record: false, chunkSize: 4096 }),
    conversationManager: new NullConversationManager(),
    sessionManager: manager('writes'),
  });
  let added = 0;
  agent.hooks.addCallback(MessageAddedEvent, () => {
    added++;
    if (marks.has(added)) checkpoints.set(added, performance.now());
  });
  await agent.initialize();
  // The floor runs half before and half after the manager, so load from other processes hits both alike.
  const condBefore = await floorWrites(0, FLOOR_WRITES / 2, true);
  const plainBefore = await floorWrites(0, FLOOR_WRITES / 2, false);
  const start = performance.now();
  await agent.invoke(prompt(WRITES));
  const managerMs = performance.now() - start;

  const floorMs = condBefore + (await floorWrites(FLOOR_WRITES / 2, FLOOR_WRITES / 2, true));
  const plainMs = plainBefore + (await floorWrites(FLOOR_WRITES / 2, FLOOR_WRITES / 2, false));

  const managerUs = (managerMs * 1000) / WRITES;
  const floorUs = (floorMs * 1000) / FLOOR_WRITES;
  console.log(
    `writes: ${WRITES} messages of ~${TEXT.length} bytes, one agent appending them (each a conditional PutObject, persisted before the next)`,
  );
  table([
    ['writer', 'messages', 'messages/s', 'µs/message', 'vs floor'],
    [
      'S3SessionManager (If-None-Match: *)',
      WRITES,
      Math.round(WRITES / (managerMs / 1000)),
      Math.round(managerUs),
      (managerUs / floorUs).toFixed(2),
    ],
    [
      'floor: PutObject with If-None-Match: *, sequential',
      FLOOR_WRITES,
      Math.round(FLOOR_WRITES / (floorMs / 1000)),
      Math.round(floorUs),
      '1.00',
    ],
    [
      '(plain PutObject, sequential)',
      FLOOR_WRITES,
      Math.round(FLOOR_WRITES / (plainMs / 1000)),
      Math.round((plainMs * 1000) / FLOOR_WRITES),
      ((plainMs * 1000) / FLOOR_WRITES / floorUs).toFixed(2),
    ],
  ]);
  const growth: (string | number)[][] = [['messages written', 'elapsed ms', 'µs/message in this stretch']];
  let [prevN, prevT] = [0, start];
  for (const n of [...marks].sort((a, b) => a - b)) {
    const t = checkpoints.get(n) ?? NaN;
    growth.push([n, Math.round(t - start), Math.round(((t - prevT) * 1000) / (n - prevN))]);
    [prevN, prevT] = [n, t];
  }
  table(growth);

  // Restores. The 10k session is the one written above; the 1k one is written in parallel (untimed).
  console.log(
    `\nrestore: S3SessionManager + agent.initialize() vs ListObjectsV2 + GetObject (${CONCURRENCY} at once) + JSON.parse`,
  );
  const sessions = new Map<number, string>([[WRITES, 'writes']]);
  for (const n of [1_000]) {
    const id = `restore-${n}`;
    const dir = `bench/session_${id}/`;
    await raw.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `${dir}session.json`,
        Body: serializeSessionData({ session_id: id, session_type: 'AGENT', created_at: at, updated_at: at }),
      }),
    );
    const agentDoc = {
      agent_id: 'default',
      state: {},
      conversation_manager_state: { __name__: 'NullConversationManager', removed_message_count: 0 },
      created_at: at,
      updated_at: at,
    };
    await raw.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `${dir}agents/agent_default/agent.json`,
        Body: serializeSessionData(agentDoc),
      }),
    );
    await pool(rows(n), 64, (r) =>
      raw.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `${dir}agents/agent_default/messages/message_${r.message_id}.json`,
          Body: serializeSessionData(r),
        }),
      ),
    );
    sessions.set(n, id);
  }
  const restoreRows: (string | number)[][] = [['messages', 'restore ms', 'floor ms', 'restore / floor', 'µs/message']];
  for (const [n, id] of [...sessions].sort((a, b) => a[0] - b[0])) {
    const t0 = performance.now();
    const restored = new Agent({
      model: new ScriptedModel([]),
      conversationManager: new NullConversationManager(),
      sessionManager: manager(id),
    });
    await restored.initialize();
    const ms = performance.now() - t0;
    if (restored.messages.length !== n) throw new Error(`restored ${restored.messages.length} messages of ${n}`);
    const t1 = performance.now();
    const prefix = `bench/session_${id}/agents/agent_default/messages/`;
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await raw.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const c of page.Contents ?? []) if (c.Key) keys.push(c.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    const parsed: unknown[] = [];
    await pool(keys, CONCURRENCY, async (key) => {
      const out = await raw.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      parsed.push(JSON.parse((await out.Body?.transformToString()) ?? 'null'));
    });
    const floorRestoreMs = performance.now() - t1;
    restoreRows.push([
      n,
      Math.round(ms),
      Math.round(floorRestoreMs),
      (ms / floorRestoreMs).toFixed(2),
      Math.round((ms * 1000) / n),
    ]);
  }
  table(restoreRows);
  const first = restoreRows[1];
  const last = restoreRows[restoreRows.length - 1];
  console.log(`growth 1k -> 10k: restore x${(Number(last?.[1]) / Number(first?.[1])).toFixed(1)} (linear: x10)`);
} finally {
  for (const m of managers) m.destroy();
  raw.destroy();
  await server.stop();
}
