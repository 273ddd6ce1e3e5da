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
  type MultiAgentStreamEvent,
  type SessionManager,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GraphBuilder, type Graph } from './index.js';

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

const refundTurn: ScriptedTurn = {
  toolUses: [{ name: 'issue_refund', input: { orderId: '42', amount: 80 }, toolUseId: 'r1' }],
};

/** triage -> refund -> notify; each built fresh, as a new process would. */
function desk(
  scripts: { triage: ScriptedTurn[]; refund: ScriptedTurn[]; notify: ScriptedTurn[] },
  sessionManager?: SessionManager,
): Graph {
  const b = new GraphBuilder().setId('desk');
  if (sessionManager) b.setSessionManager(sessionManager);
  b.addNode(new Agent({ name: 'triage', model: new ScriptedModel(scripts.triage) }));
  b.addNode(new Agent({ name: 'refund', model: new ScriptedModel(scripts.refund), tools: [issueRefund] }));
  b.addNode(new Agent({ name: 'notify', model: new ScriptedModel(scripts.notify) }));
  return b.addEdge('triage', 'refund').addEdge('refund', 'notify').build();
}

const yes = (interrupts: readonly Interrupt[]) =>
  interrupts.map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: true } } }));

function pairedHistory(messages: readonly Message[]): boolean {
  return messages.every(
    (m, i) =>
      toolUsesOf(m).length === 0 ||
      toolResultsOf(messages[i + 1] ?? { role: 'user', content: [] }).length === toolUsesOf(m).length,
  );
}

describe('graph interrupts', () => {
  it('pauses at the refund approval and resumes only that node; completed nodes never run again', async () => {
    refunds.length = 0;
    const graph = desk({ triage: ['to refund'], refund: [refundTurn, 'Refund done.'], notify: ['Customer told.'] });
    const first = await graph.invoke('I want my 80 EUR back');
    expect(first.status).toBe('interrupted');
    expect(first.interrupts).toMatchObject([
      { id: 'r1#approval', name: 'approval', source: 'refund', toolUse: { name: 'issue_refund' } },
    ]);
    expect(first.results['refund']?.status).toBe('interrupted');
    expect(first.results['notify']).toBeUndefined();
    expect(first.transitions.map((t) => [t.from, t.to, t.kind])).toEqual([
      [null, 'triage', 'start'],
      ['triage', 'refund', 'edge'],
      ['refund', null, 'interrupt'],
    ]);
    expect(refunds).toEqual([]);
    expect((await graph.pendingInterrupts()).map((i) => i.id)).toEqual(['r1#approval']);

    // The triage script has one answer only: running it again would fail the run.
    const done = await graph.invoke(yes(first.interrupts ?? []));
    expect(done.status).toBe('completed');
    expect(done.executionOrder).toEqual(['triage', 'refund', 'notify']);
    expect(done.results['refund']?.text).toBe('Refund done.');
    expect(done.executionCount).toBe(3);
    expect(refunds).toEqual(['42:80']);
    expect(done.transitions.slice(3).map((t) => [t.from, t.to, t.kind])).toEqual([
      [null, 'refund', 'resume'],
      ['refund', 'notify', 'edge'],
      ['notify', null, 'complete'],
    ]);
  });

  it('resumes from the session in a new graph (new agents, new models), as another process would', async () => {
    refunds.length = 0;
    const repository = new InMemorySessionRepository();
    const sm = () => new RepositorySessionManager({ sessionId: 'case-7', repository });
    const first = await desk({ triage: ['to refund'], refund: [refundTurn], notify: [] }, sm()).invoke('refund please');
    expect(first.status).toBe('interrupted');
    const stored = await repository.readMultiAgent('case-7', 'desk');
    expect(stored?.state['status']).toBe('interrupted');
    const refundRows = (await repository.listMessages('case-7', 'desk.refund')).map((r) => r.message);
    expect(pairedHistory(refundRows)).toBe(true);

    const second = desk({ triage: [], refund: ['Refund done.'], notify: ['Told.'] }, sm());
    expect((await second.pendingInterrupts()).map((i) => i.id)).toEqual(['r1#approval']);
    const done = await second.invoke(yes(first.interrupts ?? []));
    expect(done.status).toBe('completed');
    expect(refunds).toEqual(['42:80']);
    const transitions = await repository.readTransitions('case-7', 'desk');
    expect(transitions.map((t) => t.kind)).toEqual(['start', 'edge', 'interrupt', 'resume', 'edge', 'complete']);
    const rows = (await repository.listMessages('case-7', 'desk.refund')).map((r) => r.message);
    expect(pairedHistory(rows)).toBe(true);
    expect(rows.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('a crash after the pause was stored but before the run ended: the pause is still found and answered', async () => {
    refunds.length = 0;
    const repository = new InMemorySessionRepository();
    const sm = () => new RepositorySessionManager({ sessionId: 'cut', repository });
    const first = await desk({ triage: ['to refund'], refund: [refundTurn], notify: [] }, sm()).invoke('refund please');
    // What the state document looked like between the pause's write and the end of the run.
    const stored = (await repository.readMultiAgent('cut', 'desk'))!;
    await repository.updateMultiAgent('cut', { ...stored, state: { ...stored.state, status: 'executing' } });

    const plain = desk({ triage: [], refund: [], notify: [] }, sm());
    expect((await plain.pendingInterrupts()).map((i) => i.id)).toEqual(['r1#approval']);
    const still = await plain.invoke('refund please');
    expect(still.status).toBe('interrupted');
    expect(still.interrupts?.map((i) => i.id)).toEqual(['r1#approval']);

    const done = await desk({ triage: [], refund: ['Refund done.'], notify: ['Told.'] }, sm()).invoke(
      yes(first.interrupts ?? []),
    );
    expect(done.status).toBe('completed');
    expect(refunds).toEqual(['42:80']);
    expect(done.transitions.filter((t) => t.kind === 'start')).toHaveLength(1);
  });

  it('lets a parallel branch finish while another waits; nothing new starts until the answer', async () => {
    refunds.length = 0;
    const b = new GraphBuilder()
      .addNode(new Agent({ name: 'refund', model: new ScriptedModel([refundTurn, 'refunded']), tools: [issueRefund] }))
      .addNode(new Agent({ name: 'lookup', model: new ScriptedModel([{ text: 'found', delayMs: 20 }]) }))
      .addNode(new Agent({ name: 'report', model: new ScriptedModel(['report']) }))
      .addNode(new Agent({ name: 'close', model: new ScriptedModel(['closed']) }));
    const graph = b
      .addEdge('lookup', 'report')
      .addEdge(['refund', 'report'], 'close')
      .setEntryPoint('refund')
      .setEntryPoint('lookup')
      .build();
    const first = await graph.invoke('go');
    expect(first.status).toBe('interrupted');
    expect(first.results['lookup']?.status).toBe('completed');
    expect(first.results['report']).toBeUndefined();
    const done = await graph.invoke(yes(first.interrupts ?? []));
    expect(done.status).toBe('completed');
    // The resumed refund and the held-back report run side by side.
    expect(done.executionOrder[0]).toBe('lookup');
    expect(done.executionOrder.slice(1, 3).sort()).toEqual(['refund', 'report']);
    expect(done.executionOrder[3]).toBe('close');
    expect(refunds).toEqual(['42:80']);
  });

  it('asks before a node runs with BeforeNodeCallEvent.interrupt and hands the answer to the hook', async () => {
    const graph = desk({ triage: ['to refund'], refund: ['nothing to refund'], notify: ['told'] });
    const answers: unknown[] = [];
    graph.hooks.addCallback(BeforeNodeCallEvent, (e) => {
      if (e.nodeId === 'refund') answers.push(e.interrupt('supervisor', { node: e.nodeId }));
    });
    const first = await graph.invoke('go');
    expect(first.status).toBe('interrupted');
    expect(first.interrupts).toEqual([
      { id: 'desk/refund#supervisor', name: 'supervisor', reason: { node: 'refund' }, source: 'refund' },
    ]);
    expect(first.results['refund']).toBeUndefined();
    const done = await graph.invoke([
      { interruptResponse: { interruptId: 'desk/refund#supervisor', response: 'go ahead' } },
    ]);
    expect(done.status).toBe('completed');
    expect(answers).toEqual(['go ahead']);
    expect(done.transitions.map((t) => t.kind)).toEqual(['start', 'edge', 'interrupt', 'resume', 'edge', 'complete']);
  });

  it('rejects bad answers naming the pending ids and changes nothing; a plain task starts afresh', async () => {
    const graph = desk({ triage: ['to refund', 'again'], refund: [refundTurn, 'closed it'], notify: ['told'] });
    const events: MultiAgentStreamEvent[] = [];
    graph.on('transition', (e) => events.push(e));
    const first = await graph.invoke('go');
    const err = await graph
      .invoke([{ interruptResponse: { interruptId: 'nope', response: true } }])
      .catch((e: unknown) => e);
    expect(InterruptResponseError.is(err)).toBe(true);
    expect((err as InterruptResponseError).pendingIds).toEqual(['r1#approval']);
    const noAnswers = desk({ triage: [], refund: [], notify: [] });
    await expect(noAnswers.invoke(yes(first.interrupts ?? []))).rejects.toThrow('Graph desk waits for no answer');

    const fresh = await graph.invoke('a new case');
    expect(fresh.transitions[0]).toMatchObject({ kind: 'start', to: 'triage' });
    // The refund agent closed the unanswered approval before its new prompt.
    const refundAgent = graph.nodes.get('refund')?.target as Agent;
    expect(pairedHistory(refundAgent.messages)).toBe(true);
    expect(JSON.stringify(refundAgent.messages)).toContain('none came before the next prompt');
  });

  it('does not count the wait for a person against the execution and node timeouts', async () => {
    refunds.length = 0;
    const b = new GraphBuilder()
      .addNode(new Agent({ name: 'refund', model: new ScriptedModel([refundTurn, 'refunded']), tools: [issueRefund] }))
      .setExecutionTimeout(150)
      .setNodeTimeout(150);
    const graph = b.build();
    const first = await graph.invoke('go');
    expect(first.status).toBe('interrupted');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const done = await graph.invoke(yes(first.interrupts ?? []));
    expect(done.status).toBe('completed');
    expect(refunds).toEqual(['42:80']);
  });
});
