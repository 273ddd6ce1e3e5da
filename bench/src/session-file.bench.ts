/**
 * @skein/session-file: messages/s written through FileSessionManager (an agent appending messages)
 * against hand-written floors writing the same bytes (writeFile + rename; and the same with the fsyncs
 * an atomic, durable write needs), and restore time of 1k / 10k messages against a hand-written
 * readdir + readFile + JSON.parse loop.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  Agent,
  MessageAddedEvent,
  NullConversationManager,
  serializeSessionData,
  type Message,
  type SessionMessage,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager } from '@skein/session-file';
import { bestMs, table } from './measure.js';

const WRITES = 1_000;
const TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(20); // ~900 bytes a message
const root = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-session-file-bench-'));
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

async function throughManager(sessionId: string, n: number, timesAt?: number[]): Promise<number> {
  const sessionManager = new FileSessionManager({ sessionId, storageDir: root });
  const agent = new Agent({
    model: new ScriptedModel([TEXT], { record: false, chunkSize: 4096 }),
    conversationManager: new NullConversationManager(),
    sessionManager,
  });
  if (timesAt) agent.hooks.addCallback(MessageAddedEvent, () => void timesAt.push(performance.now()));
  const messages = prompt(n);
  const start = performance.now();
  await agent.invoke(messages);
  const ms = performance.now() - start;
  await sessionManager.close();
  return ms;
}

async function syncDir(dir: string): Promise<void> {
  const h = await fs.open(dir, 'r');
  await h.sync();
  await h.close();
}

/** The floor: the same bytes, written with a temp file and a rename each; `durable` adds the fsyncs. */
async function floor(dir: string, n: number, durable: boolean): Promise<number> {
  await fs.mkdir(dir, { recursive: true });
  const docs = rows(n).map((r) => serializeSessionData(r));
  const start = performance.now();
  for (const [i, text] of docs.entries()) {
    const tmp = path.join(dir, `.message_${i}.json.tmp`);
    if (durable) {
      const h = await fs.open(tmp, 'wx');
      await h.writeFile(text);
      await h.sync();
      await h.close();
    } else await fs.writeFile(tmp, text);
    await fs.rename(tmp, path.join(dir, `message_${i}.json`));
    if (durable) await syncDir(dir);
  }
  return performance.now() - start;
}

async function restore(sessionId: string): Promise<number> {
  const sessionManager = new FileSessionManager({ sessionId, storageDir: root });
  const agent = new Agent({
    model: new ScriptedModel([]),
    conversationManager: new NullConversationManager(),
    sessionManager,
  });
  await agent.initialize();
  return agent.messages.length;
}

async function restoreFloor(dir: string): Promise<number> {
  const names = (await fs.readdir(dir))
    .filter((f) => f.startsWith('message_'))
    .sort((a, b) => parseInt(a.slice(8), 10) - parseInt(b.slice(8), 10));
  const out: unknown[] = [];
  for (const name of names) out.push(JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')));
  return out.length;
}

try {
  // Best of 3 rounds, the three writers interleaved so that load from other processes hits them alike.
  let [managerMs, plainMs, durableMs] = [Infinity, Infinity, Infinity];
  for (let r = 0; r < 3; r++) {
    managerMs = Math.min(managerMs, await throughManager(`writes-${r}`, WRITES));
    plainMs = Math.min(plainMs, await floor(path.join(root, `floor-plain-${r}`), WRITES, false));
    durableMs = Math.min(durableMs, await floor(path.join(root, `floor-durable-${r}`), WRITES, true));
  }
  const rate = (ms: number): number => Math.round(WRITES / (ms / 1000));
  console.log(
    `writes: ${WRITES} messages of ~${TEXT.length} bytes, one agent appending them (each persisted before the next), best of 3`,
  );
  table([
    ['writer', 'messages/s', 'manager / writer time'],
    ['FileSessionManager (atomic: tmp, fsync, link, fsync dir)', rate(managerMs), '1.00'],
    ['floor: writeFile + rename', rate(plainMs), (managerMs / plainMs).toFixed(2)],
    ['floor: writeFile + fsync + rename + fsync dir', rate(durableMs), (managerMs / durableMs).toFixed(2)],
  ]);

  console.log('\nrestore: FileSessionManager + agent.initialize() vs readdir + readFile + JSON.parse (best of 3)');
  const restoreRows: (string | number)[][] = [['messages', 'restore ms', 'floor ms', 'restore / floor']];
  let growth = '';
  for (const n of [1_000, 10_000]) {
    const id = `restore-${n}`;
    const dir = path.join(root, `session_${id}`, 'agents', 'agent_default', 'messages');
    const timesAt: number[] = [];
    const writeMs = await throughManager(id, n, timesAt);
    if (n === 10_000) {
      const first = (timesAt[999] as number) - (timesAt[0] as number);
      const last = (timesAt[n - 1] as number) - (timesAt[n - 1000] as number);
      growth = `writing 10,000 through the manager: ${Math.round(n / (writeMs / 1000))} messages/s overall; last 1k / first 1k time = ${(last / first).toFixed(2)} (linear: 1)`;
    }
    if ((await restore(id)) !== n) throw new Error(`restored the wrong number of messages for ${n}`);
    const ms = await bestMs(() => restore(id), 3);
    const floorMs = await bestMs(() => restoreFloor(dir), 3);
    restoreRows.push([n, ms, floorMs, (ms / floorMs).toFixed(2)]);
  }
  table(restoreRows);
  const [, small, large] = restoreRows;
  console.log(`growth 1k -> 10k: restore x${(Number(large?.[1]) / Number(small?.[1])).toFixed(1)} (linear: x10)`);
  console.log(growth);
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
