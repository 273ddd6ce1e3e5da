/**
 * Issue 29: a Graph or Swarm stopped by a budget limit resumes the stopped node exactly where it
 * stopped. The refund agent's model behaves as a real one does: it asks for a refund of each order
 * whose result it has not yet seen in its conversation, then answers. A side-effect log shows every
 * refund paid exactly once over the stop and the resume (a new graph or swarm on the same session,
 * with new agents and models, as in a new process).
 */
import {
  Agent,
  type Budget,
  InMemorySessionRepository,
  type ModelRequest,
  RepositorySessionManager,
  tool,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ORDERS = ['42', '43'];

/** The refunds whose successful result the conversation holds. */
function refundedIn(request: ModelRequest): Set<string> {
  const done = new Set<string>();
  for (const message of request.messages) {
    for (const block of message.content) {
      if (!('toolResult' in block) || block.toolResult.status !== 'success') continue;
      for (const c of block.toolResult.content)
        if ('text' in c && c.text.startsWith('refunded ')) done.add(c.text.slice(9));
    }
  }
  return done;
}

/** Asks for one refund per turn (or all missing ones at once with `batch`), then answers. */
function refundTurn(batch: boolean): ScriptedTurn {
  return (request) => {
    const missing = ORDERS.filter((o) => !refundedIn(request).has(o));
    if (missing.length === 0) return 'Both refunds are paid.';
    const ask = batch ? missing : missing.slice(0, 1);
    return { toolUses: ask.map((orderId) => ({ name: 'refund', input: { orderId } })) };
  };
}

interface Desk {
  paid: string[];
  keys: string[];
  refundModel: ScriptedModel;
  triageModel: ScriptedModel;
  triage: Agent;
  refund: Agent;
}

function desk(
  log: { paid: string[]; keys: string[] },
  options: { batch: boolean; swarm: boolean; toolMs?: number },
): Desk {
  const refundTool = tool({
    name: 'refund',
    description: 'Refund an order',
    inputSchema: z.object({ orderId: z.string() }),
    callback: async ({ orderId }, context) => {
      if (options.toolMs) await new Promise((resolve) => setTimeout(resolve, options.toolMs));
      log.paid.push(orderId);
      log.keys.push(context.idempotencyKey);
      return `refunded ${orderId}`;
    },
  });
  const triageTurns: ScriptedTurn[] = options.swarm
    ? [{ toolUses: [{ name: 'transfer_to_refund', input: { message: 'refund 42 and 43' } }] }]
    : ['Refunds: send to refund.'];
  const triageModel = new ScriptedModel(triageTurns);
  const refundModel = new ScriptedModel([refundTurn(options.batch)], { loop: true });
  const triage = new Agent({ name: 'triage', model: triageModel, retryStrategy: null });
  const refund = new Agent({ name: 'refund', model: refundModel, tools: [refundTool], retryStrategy: null });
  return { paid: log.paid, keys: log.keys, refundModel, triageModel, triage, refund };
}

type Runner = (budget: Budget | undefined) => Promise<{ status: string }>;

function build(
  repository: InMemorySessionRepository,
  log: { paid: string[]; keys: string[] },
  options: { batch: boolean; swarm: boolean; toolMs?: number },
): { run: Runner; d: Desk } {
  const d = desk(log, options);
  const sessionManager = new RepositorySessionManager({ sessionId: 'customer-1', repository });
  if (options.swarm) {
    const swarm = new Swarm({ id: 'desk', nodes: [d.triage, d.refund], sessionManager });
    return { d, run: (budget) => swarm.invoke('Refund orders 42 and 43', budget ? { budget } : {}) };
  }
  const graph = new GraphBuilder()
    .addNode(d.triage)
    .addNode(d.refund)
    .addEdge('triage', 'refund')
    .setSessionManager(sessionManager)
    .setId('desk')
    .build();
  return { d, run: (budget) => graph.invoke('Refund orders 42 and 43', budget ? { budget } : {}) };
}

/** Every stop point of a run that makes `calls` model calls and `tools` tool calls over `nodes` node executions. */
function stopPoints(calls: number, tools: number, nodes: number): [string, Budget][] {
  const price = { scripted: { inputPerMTok: 1, outputPerMTok: 1 } };
  const points: [string, Budget][] = [];
  for (let k = 1; k < calls; k++) {
    points.push([`modelCalls: ${k}`, { modelCalls: k }]);
    // Each scripted call spends 15 tokens; a one-token reservation lets a call start while one is left.
    points.push([`totalTokens: ${15 * k}`, { totalTokens: 15 * k, reserveTokens: 1 }]);
    points.push([`costUsd: ${15 * k}e-6`, { costUsd: 15e-6 * k, reserveTokens: 1, prices: price }]);
  }
  for (let k = 0; k < tools; k++) points.push([`toolCalls: ${k}`, { toolCalls: k }]);
  for (let k = 1; k < nodes; k++) points.push([`nodeExecutions: ${k}`, { nodeExecutions: k }]);
  return points;
}

describe.each([
  ['Graph', false],
  ['Swarm', true],
])('a %s stopped by a budget resumes the stopped node where it stopped', (_shape, swarm) => {
  for (const batch of [false, true]) {
    // Uninterrupted: triage once, then the refund agent asks one refund per turn (3 calls) or both at once (2).
    const calls = 1 + (batch ? 2 : 3);
    for (const [name, budget] of stopPoints(calls, ORDERS.length, 2)) {
      it(`${name}, ${batch ? 'both refunds in one turn' : 'one refund per turn'}: every refund paid once`, async () => {
        const repository = new InMemorySessionRepository();
        const log = { paid: [] as string[], keys: [] as string[] };
        const first = build(repository, log, { batch, swarm });
        const stopped = await first.run(budget);
        expect(stopped.status).toBe('budgetExceeded');
        const second = build(repository, log, { batch, swarm });
        const resumed = await second.run({ modelCalls: 50 });
        expect(resumed.status).toBe('completed');
        expect([...log.paid].sort()).toEqual(ORDERS);
        expect(new Set(log.keys).size).toBe(2);
        // The model is called only for what had not been answered: as often as in an uninterrupted run.
        expect(first.d.refundModel.callCount + second.d.refundModel.callCount).toBe(calls - 1);
        expect(first.d.triageModel.callCount + second.d.triageModel.callCount).toBe(1);
      });
    }
  }
});

describe('a wall-time stop (wallMs) resumes the stopped node where it stopped', () => {
  for (const swarm of [false, true]) {
    it(`${swarm ? 'Swarm' : 'Graph'}: each refund paid once`, async () => {
      const repository = new InMemorySessionRepository();
      const log = { paid: [] as string[], keys: [] as string[] };
      // Each refund takes 40 ms: the run's 30 ms are gone after the first, before the next model call.
      const first = build(repository, log, { batch: false, swarm, toolMs: 40 });
      const stopped = await first.run({ wallMs: 30 });
      expect(stopped.status).toBe('budgetExceeded');
      const second = build(repository, log, { batch: false, swarm, toolMs: 40 });
      expect((await second.run({ wallMs: 60_000 })).status).toBe('completed');
      expect(log.paid).toEqual(ORDERS);
      expect(first.d.refundModel.callCount + second.d.refundModel.callCount).toBe(3);
    });
  }
});
