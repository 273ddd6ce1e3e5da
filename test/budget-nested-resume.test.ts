/**
 * Issue 29, nested: a budget stop inside a Swarm that is a Graph node, and inside an agent used as a
 * tool by a node's agent, resumes where it stopped at every depth: each refund is paid once and every
 * model is called as often as in an uninterrupted run. A second build of everything on the same
 * session plays the new process.
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

function paidIn(request: ModelRequest): Set<string> {
  const done = new Set<string>();
  for (const message of request.messages)
    for (const block of message.content) {
      if (!('toolResult' in block) || block.toolResult.status !== 'success') continue;
      for (const c of block.toolResult.content)
        if ('text' in c && c.text.startsWith('refunded ')) done.add(c.text.slice(9));
    }
  return done;
}

const refundTurn: ScriptedTurn = (request): ScriptedTurn => {
  const missing = ORDERS.filter((o) => !paidIn(request).has(o));
  return missing.length === 0
    ? 'Both refunds are paid.'
    : { toolUses: [{ name: 'refund', input: { orderId: missing[0] as string } }] };
};

interface Log {
  paid: string[];
  keys: string[];
}

function refundAgent(log: Log, name = 'refund'): { agent: Agent; model: ScriptedModel } {
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    inputSchema: z.object({ orderId: z.string() }),
    callback: ({ orderId }, context) => {
      log.paid.push(orderId);
      log.keys.push(context.idempotencyKey);
      return `refunded ${orderId}`;
    },
  });
  const model = new ScriptedModel([refundTurn], { loop: true });
  return { agent: new Agent({ name, model, tools: [refund], retryStrategy: null }), model };
}

type Built = { run: (budget: Budget) => Promise<{ status: string }>; models: ScriptedModel[] };

/** intake -> desk (a Swarm: frontline hands off to refund), the swarm on its own id in the same session. */
function graphWithSwarm(repository: InMemorySessionRepository, log: Log): Built {
  const sessionManager = new RepositorySessionManager({ sessionId: 'c1', repository });
  const intakeModel = new ScriptedModel(['Customer wants two refunds.']);
  const frontModel = new ScriptedModel([{ toolUses: [{ name: 'transfer_to_refund', input: { message: '42, 43' } }] }]);
  const intake = new Agent({ name: 'intake', model: intakeModel, retryStrategy: null });
  const front = new Agent({ name: 'frontline', model: frontModel, retryStrategy: null });
  const refund = refundAgent(log);
  const swarm = new Swarm({ id: 'desk', nodes: [front, refund.agent], sessionManager });
  const graph = new GraphBuilder()
    .addNode(intake)
    .addNode(swarm)
    .addEdge('intake', 'desk')
    .setSessionManager(sessionManager)
    .setId('outer')
    .build();
  return {
    run: (budget) => graph.invoke('Refund 42 and 43', { budget }),
    models: [intakeModel, frontModel, refund.model],
  };
}

/** triage -> support, where support asks a refund agent it uses as a tool. */
function graphWithAgentTool(repository: InMemorySessionRepository, log: Log): Built {
  const sessionManager = new RepositorySessionManager({ sessionId: 'c1', repository });
  const triageModel = new ScriptedModel(['To support.']);
  // Like a real model, it asks for what its conversation has no answer to yet.
  const asked = (r: ModelRequest): boolean => r.messages.some((m) => m.content.some((b) => 'toolResult' in b));
  const supportModel = new ScriptedModel(
    [
      (r): ScriptedTurn =>
        asked(r) ? 'Done: both refunded.' : { toolUses: [{ name: 'refunds', input: { input: 'refund 42 and 43' } }] },
    ],
    { loop: true },
  );
  const inner = refundAgent(log, 'refunds');
  const triage = new Agent({ name: 'triage', model: triageModel, retryStrategy: null });
  const support = new Agent({
    name: 'support',
    model: supportModel,
    tools: [inner.agent.asTool()],
    retryStrategy: null,
  });
  const graph = new GraphBuilder()
    .addNode(triage)
    .addNode(support)
    .addEdge('triage', 'support')
    .setSessionManager(sessionManager)
    .build();
  return {
    run: (budget) => graph.invoke('Refund 42 and 43', { budget }),
    models: [triageModel, supportModel, inner.model],
  };
}

describe.each([
  ['a Swarm that is a Graph node', graphWithSwarm, 5],
  ['an agent used as a tool by a node agent', graphWithAgentTool, 6],
])('a budget stop inside %s resumes where it stopped', (_name, build, calls) => {
  for (let k = 1; k < calls; k++) {
    for (const [label, budget] of [
      [`modelCalls: ${k}`, { modelCalls: k }],
      [`totalTokens: ${15 * k}`, { totalTokens: 15 * k, reserveTokens: 1 }],
    ] as [string, Budget][]) {
      it(`${label}: each refund paid once, every model called as often as uninterrupted`, async () => {
        const repository = new InMemorySessionRepository();
        const log: Log = { paid: [], keys: [] };
        const first = build(repository, log);
        expect((await first.run(budget)).status).toBe('budgetExceeded');
        const second = build(repository, log);
        expect((await second.run({ modelCalls: 50 })).status).toBe('completed');
        expect([...log.paid].sort()).toEqual(ORDERS);
        expect(new Set(log.keys).size).toBe(2);
        const total = first.models.map((m, i) => m.callCount + (second.models[i] as ScriptedModel).callCount);
        expect(total.reduce((a, b) => a + b, 0)).toBe(calls);
      });
    }
  }
});
