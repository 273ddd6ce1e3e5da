import {
  Agent,
  BeforeNodeCallEvent,
  InMemorySessionRepository,
  InterruptResponseError,
  RepositorySessionManager,
  tool,
  toolResultsOf,
  toolUsesOf,
  type Interrupt,
  type Message,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const refunds: string[] = [];
const issueRefund = tool({
  name: 'issue_refund',
  description: 'Refund an order',
  inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
  needsApproval: ({ amount }) => amount > 50,
  callback: ({ orderId, amount }) => {
    refunds.push(`${orderId}:${amount}`);
    return 'refunded';
  },
});

const toRefund: ScriptedTurn = {
  text: 'Refunds will help.',
  toolUses: [{ name: 'transfer_to_refund', toolUseId: 'h1', input: { message: 'refund order 42' } }],
};
const refundTurn: ScriptedTurn = {
  toolUses: [
    { name: 'lookup', input: {}, toolUseId: 'l1' },
    { name: 'issue_refund', input: { orderId: '42', amount: 80 }, toolUseId: 'r1' },
  ],
};
let lookups = 0;
const lookup = tool({
  name: 'lookup',
  description: 'Looks the order up',
  inputSchema: z.object({}),
  callback: () => (lookups++, 'order 42: 80 EUR'),
});

function swarmOf(
  scripts: { triage: ScriptedTurn[]; refund: ScriptedTurn[] },
  repository?: InMemorySessionRepository,
): Swarm {
  const triage = new Agent({ name: 'triage', model: new ScriptedModel(scripts.triage), retryStrategy: null });
  const refund = new Agent({
    name: 'refund',
    model: new ScriptedModel(scripts.refund),
    tools: [issueRefund, lookup],
    retryStrategy: null,
  });
  return new Swarm({
    id: 'desk',
    nodes: [triage, refund],
    ...(repository ? { sessionManager: new RepositorySessionManager({ sessionId: 'case-1', repository }) } : {}),
  });
}

const yes = (interrupts: readonly Interrupt[] | undefined) =>
  (interrupts ?? []).map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: true } } }));

function paired(messages: readonly Message[]): boolean {
  return messages.every(
    (m, i) =>
      toolUsesOf(m).length === 0 ||
      toolResultsOf(messages[i + 1] ?? { role: 'user', content: [] }).length === toolUsesOf(m).length,
  );
}

describe('swarm interrupts', () => {
  it('pauses in the refund agent after the handoff and resumes there: triage does not run again, lookup ran once', async () => {
    refunds.length = 0;
    lookups = 0;
    const swarm = swarmOf({ triage: [toRefund], refund: [refundTurn, 'Refunded 80 EUR.'] });
    const first = await swarm.invoke('I want my money back for order 42');
    expect(first.status).toBe('interrupted');
    expect(first.interrupts).toMatchObject([{ id: 'r1#approval', source: 'refund', reason: { tool: 'issue_refund' } }]);
    expect(first.results['refund']?.status).toBe('interrupted');
    expect(first.transitions.map((t) => [t.kind, t.from, t.to])).toEqual([
      ['start', null, 'triage'],
      ['handoff', 'triage', 'refund'],
      ['interrupt', 'refund', null],
    ]);

    const done = await swarm.invoke(yes(first.interrupts));
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Refunded 80 EUR.');
    expect(done.nodeHistory).toEqual(['triage', 'refund']);
    expect(refunds).toEqual(['42:80']);
    expect(lookups).toBe(1);
    expect(done.transitions.slice(3).map((t) => [t.kind, t.from, t.to])).toEqual([
      ['resume', null, 'refund'],
      ['complete', 'refund', null],
    ]);
    const refundAgent = swarm.nodes[1] as Agent;
    expect(paired(refundAgent.messages)).toBe(true);
    // lookup's result and the refund's result come back in one message, in the order the model asked.
    const results = refundAgent.messages.filter((m) => toolResultsOf(m).length > 0).at(-1) as Message;
    expect(toolResultsOf(results).map((r) => r.toolUseId)).toEqual(['l1', 'r1']);
  });

  it('resumes in a new swarm on the same session, rebuilding the conversation from the stored turns', async () => {
    refunds.length = 0;
    const repository = new InMemorySessionRepository();
    const first = await swarmOf({ triage: [toRefund], refund: [refundTurn] }, repository).invoke('refund please');
    expect(first.status).toBe('interrupted');
    const stored = await repository.readMultiAgent('case-1', 'desk');
    expect(stored?.state).toMatchObject({ status: 'interrupted', pause: { node: 'refund', stage: 'node' } });

    // Fresh agents and scripts, as a new process builds them: triage's is empty, so it must not run.
    const swarm = swarmOf({ triage: [], refund: ['Refunded.'] }, repository);
    expect((await swarm.pendingInterrupts()).map((i) => i.id)).toEqual(['r1#approval']);
    const refundModel = (swarm.nodes[1] as Agent).model as ScriptedModel;
    const done = await swarm.invoke(yes(first.interrupts));
    expect(done.status).toBe('completed');
    expect(refunds).toEqual(['42:80']);
    const seen = refundModel.requests[0]?.messages ?? [];
    expect(paired(seen)).toBe(true);
    expect(JSON.stringify(seen)).toContain('refund order 42');
    expect((await repository.readTransitions('case-1', 'desk')).map((t) => t.kind)).toEqual([
      'start',
      'handoff',
      'interrupt',
      'resume',
      'complete',
    ]);
  });

  it('asks before a node runs (BeforeNodeCallEvent.interrupt), rejects bad answers, and starts afresh on a plain task', async () => {
    const swarm = swarmOf({ triage: [toRefund, 'Hello again.'], refund: ['Nothing to refund.'] });
    const asked: unknown[] = [];
    swarm.hooks.addCallback(BeforeNodeCallEvent, (e) => {
      if (e.nodeId === 'refund') asked.push(e.interrupt('supervisor', 'may refund run?'));
    });
    const first = await swarm.invoke('go');
    expect(first.interrupts).toEqual([
      { id: 'desk/refund#supervisor', name: 'supervisor', reason: 'may refund run?', source: 'refund' },
    ]);
    const bad = await swarm.invoke([{ interruptResponse: { interruptId: 'x', response: 1 } }]).catch((e: unknown) => e);
    expect(InterruptResponseError.is(bad)).toBe(true);
    expect((bad as InterruptResponseError).pendingIds).toEqual(['desk/refund#supervisor']);
    const done = await swarm.invoke([
      { interruptResponse: { interruptId: 'desk/refund#supervisor', response: 'yes' } },
    ]);
    expect(done.status).toBe('completed');
    expect(asked).toEqual(['yes']);
    expect(done.text).toBe('Nothing to refund.');

    const fresh = await swarm.invoke('new question');
    expect(fresh.status).toBe('completed');
    expect(fresh.transitions[0]).toMatchObject({ kind: 'start' });
    await expect(swarm.invoke(yes(first.interrupts))).rejects.toThrow('Swarm desk waits for no answer');
  });
});

describe('swarm pause inside a multi-cycle turn', () => {
  it('keeps what the turn did before the pause (a lookup in an earlier cycle) and runs the approved refund once', async () => {
    refunds.length = 0;
    lookups = 0;
    const steps: ScriptedTurn[] = [
      { toolUses: [{ name: 'lookup', input: {}, toolUseId: 'l1' }] },
      { toolUses: [{ name: 'issue_refund', input: { orderId: '42', amount: 80 }, toolUseId: 'r1' }] },
      (req) =>
        JSON.stringify(req.messages).includes('order 42: 80 EUR') ? 'Refunded after the lookup.' : 'lookup lost',
    ];
    const swarm = swarmOf({ triage: [toRefund], refund: steps });
    const first = await swarm.invoke('refund');
    const done = await swarm.invoke(yes(first.interrupts));
    expect(done.text).toBe('Refunded after the lookup.');
    expect(refunds).toEqual(['42:80']);
    expect(lookups).toBe(1);
  });
});

describe('swarm timeouts', () => {
  it('does not count the wait for a person against the execution and node timeouts', async () => {
    refunds.length = 0;
    const triage = new Agent({ name: 'triage', model: new ScriptedModel([toRefund]), retryStrategy: null });
    const refund = new Agent({
      name: 'refund',
      model: new ScriptedModel([refundTurn, 'Refunded.']),
      tools: [issueRefund, lookup],
      retryStrategy: null,
    });
    const swarm = new Swarm({ id: 't', nodes: [triage, refund], executionTimeout: 150, nodeTimeout: 150 });
    const first = await swarm.invoke('refund');
    expect(first.status).toBe('interrupted');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const done = await swarm.invoke(yes(first.interrupts));
    expect(done.status).toBe('completed');
    expect(refunds).toEqual(['42:80']);
  });
});

describe('interrupts at any depth', () => {
  it('an approval inside a swarm node of a graph surfaces with its path and resumes through graph.invoke', async () => {
    refunds.length = 0;
    const swarm = swarmOf({ triage: [toRefund], refund: [refundTurn, 'Refunded.'] });
    const intake = new Agent({ name: 'intake', model: new ScriptedModel(['Customer wants a refund.']) });
    const report = new Agent({ name: 'report', model: new ScriptedModel(['Filed.']) });
    const graph = new GraphBuilder()
      .addNode(intake)
      .addNode(swarm)
      .addNode(report)
      .addEdge('intake', 'desk')
      .addEdge('desk', 'report')
      .build();
    const first = await graph.invoke('refund 42');
    expect(first.status).toBe('interrupted');
    expect(first.interrupts).toMatchObject([{ id: 'r1#approval', source: 'desk/refund' }]);
    const done = await graph.invoke(yes(first.interrupts));
    expect(done.status).toBe('completed');
    expect(done.executionOrder).toEqual(['intake', 'desk', 'report']);
    expect(done.results['desk']?.text).toBe('Refunded.');
    expect(refunds).toEqual(['42:80']);
  });
});
