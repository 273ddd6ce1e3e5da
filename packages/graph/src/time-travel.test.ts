import {
  InMemorySessionRepository,
  SessionCorruptError,
  SessionConflictError,
  ConfigurationError,
  type NodeTransition,
} from '@skein/core';
import { describe, expect, it } from 'vitest';
import { approveAll, deskGraph, type DeskEffects, type Role } from './test-support/desk.js';
import type { Graph, GraphResult } from './index.js';

const path = (ts: readonly NodeTransition[]): string[] =>
  ts.filter((t) => t.kind !== 'resume').map((t) => `${t.from}>${t.to}:${t.kind}`);
const texts = (r: GraphResult): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(r.results).map(([id, n]) => [id, n.text]));

/** Runs a fork to its end: a finished fork is read back, a paused one is approved, anything else resumes. */
async function finish(graph: Graph): Promise<GraphResult> {
  const done = await graph.lastResult();
  if (done) return done;
  const waiting = await graph.pendingInterrupts();
  const first = await graph.invoke(
    waiting.length > 0
      ? waiting.map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: true } } }))
      : 'continue',
  );
  return approveAll(graph, first);
}

async function original(repository: InMemorySessionRepository, effects: DeskEffects, task = 'Please refund order 42') {
  const graph = deskGraph(repository, 'desk-1', effects);
  return { graph, result: await approveAll(graph, await graph.invoke(task)) };
}

describe('time travel on the desk graph', () => {
  it('lists every committed step with its transitions and node sets; stateAt shows each agent then', async () => {
    const repository = new InMemorySessionRepository();
    const { graph, result } = await original(repository, { refunds: 0, lookups: 0 });
    expect(result.status).toBe('completed');
    const history = await graph.history();
    expect(history.map((h) => h.step)).toEqual(history.map((_, i) => i));
    expect(history[0]).toMatchObject({ run: 1, status: 'executing', waiting: ['triage'], completed: [] });
    expect(history[1]).toMatchObject({ waiting: ['refund'], completed: ['triage'] });
    expect(history.some((h) => h.paused.includes('refund') && h.status === 'interrupted')).toBe(true);
    expect(history.at(-1)).toMatchObject({ status: 'completed', completed: ['triage', 'refund', 'summary'] });
    expect(history.flatMap((h) => h.transitions).map((t) => t.seq)).toEqual(result.transitions.map((t) => t.seq));
    const at1 = await graph.stateAt(1);
    expect(at1.results['triage']?.text).toBe('ROUTE: refund');
    expect(at1.agents['triage']?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(at1.agents['refund']?.messages).toEqual([]);
    expect(at1.executionOrder).toEqual(['triage']);
    const last = await graph.stateAt(history.at(-1)!.step);
    expect(last.agents['refund']?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('forking at every step with no edit and replaying the recorded outputs gives the original result, with no tool run again', async () => {
    const repository = new InMemorySessionRepository();
    const effects = { refunds: 0, lookups: 0 };
    const { graph, result } = await original(repository, effects);
    expect(effects.refunds).toBe(1);
    for (const { step } of await graph.history()) {
      const fork = await graph.fork({ step, to: `replay-${step}` });
      expect(fork.forkedFrom).toMatchObject({ sessionId: 'desk-1', orchestratorId: 'desk', step, edits: [] });
      const models = Object.fromEntries(
        (['triage', 'billing', 'refund', 'summary'] as Role[]).map((r) => [r, fork.recording.model(r)]),
      );
      const replay = deskGraph(repository, fork.sessionId, effects, models);
      fork.recording.guard(replay.nodes);
      const replayed = await finish(replay);
      expect(replayed.status, `fork at step ${step}`).toBe('completed');
      expect(texts(replayed), `fork at step ${step}`).toEqual(texts(result));
      expect(path(replayed.transitions), `fork at step ${step}`).toEqual(path(result.transitions));
    }
    expect(effects.refunds).toBe(1);
  });

  it('editing the triage output at step 1 takes the other route; the original session is not written', async () => {
    const repository = new InMemorySessionRepository();
    const effects = { refunds: 0, lookups: 0 };
    const { graph, result } = await original(repository, effects);
    const before = JSON.stringify(await repository.readTransitions('desk-1', 'desk'));
    const fork = await graph.fork({ step: 1, to: 'what-if', edit: { results: { triage: 'ROUTE: billing' } } });
    expect(fork.forkedFrom.edits).toEqual(['result of triage replaced; its edges were followed again']);
    const other = deskGraph(repository, 'what-if', effects);
    const rerouted = await finish(other);
    expect(rerouted.status).toBe('completed');
    expect(rerouted.executionOrder).toEqual(['triage', 'billing', 'summary']);
    expect(rerouted.results['summary']?.text).toBe('Summary: billing fixed.');
    expect(path(rerouted.transitions).slice(0, 2)).toEqual(['null>triage:start', 'triage>billing:edge']);
    expect(effects).toEqual({ refunds: 1, lookups: 1 });
    expect(JSON.stringify(await repository.readTransitions('desk-1', 'desk'))).toBe(before);
    expect((await graph.lastResult())?.executionOrder).toEqual(result.executionOrder);
    // The fork records where it came from.
    expect((await other.history())[0]?.forkedFrom).toMatchObject({ sessionId: 'desk-1', step: 1 });
  });

  it('a fork of a run waiting for approval is answered independently of the original', async () => {
    const repository = new InMemorySessionRepository();
    const effects = { refunds: 0, lookups: 0 };
    const graph = deskGraph(repository, 'desk-1', effects);
    const paused = await graph.invoke('Please refund order 42');
    expect(paused.status).toBe('interrupted');
    const step = (await graph.history()).at(-1)!.step;
    await graph.fork({ step, to: 'approved' });
    const fork = deskGraph(repository, 'approved', effects);
    const asked = await fork.pendingInterrupts();
    expect(asked.map((i) => i.name)).toEqual(['approval']);
    const done = await fork.invoke(
      asked.map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: true } } })),
    );
    expect(done.status).toBe('completed');
    expect(effects.refunds).toBe(1);
    // The original still waits, and can be answered otherwise.
    const waiting = await graph.pendingInterrupts();
    expect(waiting.map((i) => i.name)).toEqual(['approval']);
    const denied = await graph.invoke(
      waiting.map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: false } } })),
    );
    expect(denied.status).toBe('completed');
    expect(effects.refunds).toBe(1);
  });

  it('edits are validated before anything is written; a fork into an existing session is refused', async () => {
    const repository = new InMemorySessionRepository();
    const { graph } = await original(repository, { refunds: 0, lookups: 0 });
    await expect(graph.fork({ step: 1, to: 'x', edit: { results: { nobody: 'hi' } } })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(graph.fork({ step: 1, to: 'x', edit: { next: ['nobody'] } })).rejects.toThrow(/does not have/);
    await expect(graph.fork({ step: 1, to: 'x', edit: { colour: 'red' } as never })).rejects.toThrow(/unknown field/);
    expect(await repository.readSession('x')).toBeUndefined();
    await expect(graph.fork({ step: 1, to: 'desk-1' })).rejects.toBeInstanceOf(SessionConflictError);
    await graph.fork({ step: 1, to: 'x' });
    await expect(graph.fork({ step: 2, to: 'x' })).rejects.toBeInstanceOf(SessionConflictError);
    await expect(graph.stateAt(999)).rejects.toThrow(/not kept/);
  });

  it('edits a node agent message, a tool result, the next node and the task', async () => {
    const repository = new InMemorySessionRepository();
    const effects = { refunds: 0, lookups: 0 };
    const { graph } = await original(repository, effects, 'My bill is wrong');
    const history = await graph.history();
    const billingDone = history.find((h) => h.completed.includes('billing'))!.step;
    const at = await graph.stateAt(billingDone);
    const toolUse = at.agents['billing']?.messages.flatMap((m) => m.content).find((b) => 'toolResult' in b);
    const toolUseId = toolUse && 'toolResult' in toolUse ? toolUse.toolResult.toolUseId : '';
    await graph.fork({
      step: billingDone,
      to: 'edited',
      edit: {
        lastMessage: { billing: 'Billing: nothing was wrong.' },
        toolResults: { [toolUseId]: 'order 42: charged once' },
        next: ['summary'],
        task: 'My bill is fine',
      },
    });
    const edited = deskGraph(repository, 'edited', effects);
    const state = await edited.stateAt(billingDone);
    const billing = state.agents['billing']?.messages ?? [];
    expect(billing.at(-1)?.content).toEqual([{ text: 'Billing: nothing was wrong.' }]);
    expect(JSON.stringify(billing)).toContain('order 42: charged once');
    expect(state.waiting).toEqual(['summary']);
    expect(state.task).toBe('My bill is fine');
    const done = await finish(edited);
    expect(done.status).toBe('completed');
    expect(done.executionOrder.at(-1)).toBe('summary');
  });

  it('a corrupted or missing step is a clear SessionCorruptError', async () => {
    const repository = new InMemorySessionRepository();
    const { graph } = await original(repository, { refunds: 0, lookups: 0 });
    await repository.putNodeEntry('desk-1', 'desk@run-000001', 'step-000000002', { nonsense: true });
    await expect(graph.stateAt(3)).rejects.toBeInstanceOf(SessionCorruptError);
    await expect(graph.stateAt(3)).rejects.toThrow(
      /Step 2 \(run 1\) of orchestrator desk in session desk-1 is not a valid step/,
    );
    await expect(graph.history()).rejects.toBeInstanceOf(SessionCorruptError);
    await expect(graph.stateAt(1)).resolves.toMatchObject({ step: 1 });
  });

  it('keeps the last N runs, or none', async () => {
    const repository = new InMemorySessionRepository();
    const effects = { refunds: 0, lookups: 0 };
    const graph = deskGraph(repository, 'kept', effects, {}, { keep: 2 });
    for (const task of ['My bill is wrong', 'Still wrong', 'Wrong again']) await graph.invoke(task);
    const runs = [...new Set((await graph.history()).map((h) => h.run))];
    expect(runs).toEqual([2, 3]);
    expect(await repository.readMultiAgent('kept', 'desk@run-000001')).toBeUndefined();
    const none = deskGraph(repository, 'none', effects, {}, { keep: 'none' });
    await none.invoke('My bill is wrong');
    expect(await none.history()).toEqual([]);
    expect(await repository.readMultiAgent('none', 'desk@history')).toBeUndefined();
    expect(() => deskGraph(repository, 'bad', effects, {}, { keep: 0 })).toThrow(ConfigurationError);
  });
});
