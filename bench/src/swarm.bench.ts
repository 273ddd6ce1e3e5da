/**
 * µs per handoff in a Swarm: a chain of 20 agents with scripted models, each handing off to the
 * next, the last one answering. Floor: the same 20 agents (same scripts, same handoff tools) invoked
 * directly one after another, each from a fresh one-message history, so the loop and model work is
 * the same and the difference is the swarm's own cost (filtering, notes, bookkeeping, events).
 */
import { Agent, InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
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
    agents.unshift(new Agent({ model, name: `agent_${i}`, retryStrategy: null, ...(next ? { handoffs: [next] } : {}) }));
  }
  return agents;
}

const floorAgents = chain();
async function floor(): Promise<void> {
  for (const agent of floorAgents) {
    agent.messages = [];
    const result = await agent.invoke('Route this request.', agent.handoffs.length > 0 ? { handoffs: agent.handoffs } : {});
    if (result.stopReason !== (agent === floorAgents[N - 1] ? 'end_turn' : 'handoff')) throw new Error(`floor: ${result.stopReason}`);
  }
}

const plain = Swarm.fromAgent(chain()[0] as Agent);
const nested = Swarm.fromAgent(chain()[0] as Agent, { nestHandoffHistory: true });
const repository = new InMemorySessionRepository();
const persisted = Swarm.fromAgent(chain()[0] as Agent, { sessionManager: new RepositorySessionManager({ sessionId: 'bench', repository }), id: 'chain' });

const storageDir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-swarm-bench-'));
const fileSessions = new FileSessionManager({ sessionId: 'bench', storageDir });
const onFiles = Swarm.fromAgent(chain()[0] as Agent, { sessionManager: fileSessions, id: 'chain' });
const onFilesNested = Swarm.fromAgent(chain()[0] as Agent, { sessionManager: fileSessions, id: 'chain-nested', nestHandoffHistory: true });

async function run(swarm: Swarm): Promise<void> {
  const result = await swarm.invoke('Route this request.');
  if (result.status !== 'completed' || result.handoffCount !== HANDOFFS) throw new Error(`swarm: ${result.status} ${result.failureReason ?? ''}`);
}

const iterations = 30;
// The floor runs before and after the swarm cases (best of both), so JIT warm-up and noise from the
// other core do not flatter either side.
let floorUs = await usPerOp(floor, iterations);
for (const swarm of [plain, nested, persisted]) await usPerOp(() => run(swarm), iterations, 1);
floorUs = Math.min(floorUs, await usPerOp(floor, iterations));
const rows: (string | number)[][] = [['case', 'µs per run', 'µs per handoff', 'overhead µs per handoff', 'x floor']];
rows.push(['floor: 20 agents invoked directly', floorUs, floorUs / HANDOFFS, 0, 1]);
for (const [name, swarm] of [['swarm (full history)', plain], ['swarm + nestHandoffHistory', nested], ['swarm + in-memory session', persisted]] as const) {
  const us = await usPerOp(() => run(swarm), iterations);
  rows.push([name, us, us / HANDOFFS, (us - floorUs) / HANDOFFS, us / floorUs]);
}
// File sessions write (and fsync) every stored message: a few runs only; disk contention dominates.
for (const [name, swarm] of [['swarm + FileSessionManager', onFiles], ['swarm + FileSessionManager + nested', onFilesNested]] as const) {
  const us = await usPerOp(() => run(swarm), 2, 2);
  rows.push([`${name} (2x2 runs)`, us, us / HANDOFFS, (us - floorUs) / HANDOFFS, us / floorUs]);
}
await fileSessions.close();
await fs.rm(storageDir, { recursive: true, force: true });
console.log(`Swarm chain of ${N} agents (${HANDOFFS} handoffs), scripted models, best of 5 rounds x ${iterations} runs`);
table(rows);
