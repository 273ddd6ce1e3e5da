/**
 * µs per handoff in a Swarm: a chain of 20 agents with scripted models, each handing off to the
 * next, the last one answering. Floor: the same 20 agents (same scripts, same handoff tools) invoked
 * directly one after another, each from a fresh one-message history, so the loop and model work is
 * the same and the difference is the swarm's own cost (filtering, notes, bookkeeping, events).
 * With file sessions the floor is one durable atomic file write (temp file, fsync, rename, fsync dir)
 * per handoff: the least a crash-safe log of the turns needs. A counting in-memory repository shows
 * what one handoff writes, early and late in the chain (constant, not growing with the history).
 */
import {
  Agent,
  InMemorySessionRepository,
  RepositorySessionManager,
  type JsonObject,
  type SessionMultiAgent,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileSessionManager } from '@skein/session-file';
import { Swarm } from '@skein/swarm';
import { table, usPerOp } from './measure.js';

const N = 20;
const HANDOFFS = N - 1;

function chain(): Agent[] {
  const agents: Agent[] = [];
  for (let i = N - 1; i >= 0; i--) {
    const next = agents[0];
    const turn = next
      ? { text: `agent ${i} passes on`, toolUses: [{ name: `transfer_to_agent_${i + 1}`, input: {} }] }
      : { text: 'the last agent answers' };
    const model = new ScriptedModel([turn], { loop: true, record: false, chunkSize: 64 });
    agents.unshift(
      new Agent({ model, name: `agent_${i}`, retryStrategy: null, ...(next ? { handoffs: [next] } : {}) }),
    );
  }
  return agents;
}

const floorAgents = chain();
async function floor(): Promise<void> {
  for (const agent of floorAgents) {
    agent.messages = [];
    const result = await agent.invoke(
      'Route this request.',
      agent.handoffs.length > 0 ? { handoffs: agent.handoffs } : {},
    );
    if (result.stopReason !== (agent === floorAgents[N - 1] ? 'end_turn' : 'handoff'))
      throw new Error(`floor: ${result.stopReason}`);
  }
}

const plain = Swarm.fromAgent(chain()[0] as Agent);
const nested = Swarm.fromAgent(chain()[0] as Agent, { nestHandoffHistory: true });
const repository = new InMemorySessionRepository();
const persisted = Swarm.fromAgent(chain()[0] as Agent, {
  sessionManager: new RepositorySessionManager({ sessionId: 'bench', repository }),
  id: 'chain',
});

const storageDir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-swarm-bench-'));
const fileSessions = new FileSessionManager({ sessionId: 'bench', storageDir });
const onFiles = Swarm.fromAgent(chain()[0] as Agent, { sessionManager: fileSessions, id: 'chain' });
const onFilesNested = Swarm.fromAgent(chain()[0] as Agent, {
  sessionManager: fileSessions,
  id: 'chain-nested',
  nestHandoffHistory: true,
});

async function run(swarm: Swarm): Promise<void> {
  const result = await swarm.invoke('Route this request.');
  if (result.status !== 'completed' || result.handoffCount !== HANDOFFS)
    throw new Error(`swarm: ${result.status} ${result.failureReason ?? ''}`);
}

/** Counts the writes and bytes of the current bucket (one bucket per node). */
class CountingRepository extends InMemorySessionRepository {
  buckets: { writes: number; bytes: number }[] = [{ writes: 0, bytes: 0 }];
  #add(payload: unknown): void {
    const b = this.buckets[this.buckets.length - 1] as { writes: number; bytes: number };
    b.writes++;
    b.bytes += JSON.stringify(payload).length;
  }
  override async updateMultiAgent(sessionId: string, doc: SessionMultiAgent): Promise<void> {
    this.#add(doc);
    return super.updateMultiAgent(sessionId, doc);
  }
  override async putNodeEntry(sessionId: string, id: string, nodeId: string, entry: JsonObject): Promise<void> {
    this.#add(entry);
    return super.putNodeEntry(sessionId, id, nodeId, entry);
  }
  override async appendTransitions(...args: Parameters<InMemorySessionRepository['appendTransitions']>): Promise<void> {
    this.#add(args[2]);
    return super.appendTransitions(...args);
  }
}

async function syncDir(dir: string): Promise<void> {
  const h = await fs.open(dir, 'r');
  await h.sync();
  await h.close();
}

/** The file floor: one durable atomic write of `bytes` bytes per handoff. */
async function fileFloor(dir: string, bytes: number): Promise<void> {
  const text = 'x'.repeat(bytes);
  for (let i = 0; i < HANDOFFS; i++) {
    const tmp = path.join(dir, `.turn_${i}.json.tmp`);
    const h = await fs.open(tmp, 'w');
    await h.writeFile(text);
    await h.sync();
    await h.close();
    await fs.rename(tmp, path.join(dir, `turn_${i}.json`));
    await syncDir(dir);
  }
}

const iterations = 30;
// The floor runs before and after the swarm cases (best of both), so JIT warm-up and noise from the
// other core do not flatter either side.
let floorUs = await usPerOp(floor, iterations);
for (const swarm of [plain, nested, persisted]) await usPerOp(() => run(swarm), iterations, 1);
floorUs = Math.min(floorUs, await usPerOp(floor, iterations));
const rows: (string | number)[][] = [['case', 'µs per run', 'µs per handoff', 'overhead µs per handoff', 'x floor']];
rows.push(['floor: 20 agents invoked directly', floorUs, floorUs / HANDOFFS, 0, 1]);
for (const [name, swarm] of [
  ['swarm (full history)', plain],
  ['swarm + nestHandoffHistory', nested],
  ['swarm + in-memory session', persisted],
] as const) {
  const us = await usPerOp(() => run(swarm), iterations);
  rows.push([name, us, us / HANDOFFS, (us - floorUs) / HANDOFFS, us / floorUs]);
}
// File sessions fsync every write: a few runs only; disk contention dominates.
const counting = new CountingRepository();
const counted = Swarm.fromAgent(chain()[0] as Agent, {
  sessionManager: new RepositorySessionManager({ sessionId: 'count', repository: counting }),
  id: 'chain',
});
const gen = counted.stream('Route this request.');
for (let step = await gen.next(); !step.done; step = await gen.next())
  if (step.value.type === 'nodeStart') counting.buckets.push({ writes: 0, bytes: 0 });
const perNode = counting.buckets.slice(1);
const floorDir = path.join(storageDir, 'floor');
await fs.mkdir(floorDir);
const turnBytes = Math.round(perNode.slice(0, HANDOFFS).reduce((n, b) => n + b.bytes, 0) / HANDOFFS);
const fileFloorUs = await usPerOp(() => fileFloor(floorDir, turnBytes), 2, 2);
rows.push([
  `floor: 1 durable file write of ${turnBytes} B per handoff (2x2 runs)`,
  fileFloorUs,
  fileFloorUs / HANDOFFS,
  '-',
  fileFloorUs / floorUs,
]);
for (const [name, swarm] of [
  ['swarm + FileSessionManager', onFiles],
  ['swarm + FileSessionManager + nested', onFilesNested],
] as const) {
  const us = await usPerOp(() => run(swarm), 2, 2);
  rows.push([`${name} (2x2 runs)`, us, us / HANDOFFS, (us - floorUs) / HANDOFFS, us / floorUs]);
}
await fileSessions.close();
await fs.rm(storageDir, { recursive: true, force: true });
console.log(
  `Swarm chain of ${N} agents (${HANDOFFS} handoffs), scripted models, best of 5 rounds x ${iterations} runs`,
);
table(rows);
const [second, last] = [perNode[1], perNode[HANDOFFS - 1]] as { writes: number; bytes: number }[];
console.log(
  `\nSession writes per handoff (in-memory, counted): handoff 2: ${second?.writes} writes, ${second?.bytes} B; handoff ${HANDOFFS}: ${last?.writes} writes, ${last?.bytes} B (x${((last?.bytes ?? 0) / (second?.bytes ?? 1)).toFixed(2)})`,
);
console.log(
  `File sessions vs the 1-write floor: ${((rows.at(-2)?.[1] as number) / fileFloorUs).toFixed(2)}x (full), ${((rows.at(-1)?.[1] as number) / fileFloorUs).toFixed(2)}x (nested)`,
);
