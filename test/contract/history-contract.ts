import {
  Agent,
  RepositorySessionManager,
  SessionCorruptError,
  tool,
  type Model,
  type ModelRequest,
  type NodeTransition,
  type SessionRepository,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { GraphBuilder, type Graph, type GraphResult, type GraphState } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Storage, StoreUnderTest } from './store-under-test.js';

type Role = 'triage' | 'billing' | 'refund';
const text = (r: ModelRequest): string => JSON.stringify(r.messages.at(-1)?.content ?? []);
const refunded = (r: ModelRequest): boolean => JSON.stringify(r.messages).includes('refunded 42');
const looked = (r: ModelRequest): boolean => JSON.stringify(r.messages).includes('charged twice');
const scripted = (answer: (r: ModelRequest) => ScriptedTurn): ScriptedModel =>
  new ScriptedModel([answer], { loop: true });
const path = (ts: readonly NodeTransition[]): string[] =>
  ts.filter((t) => t.kind !== 'resume').map((t) => `${t.from}>${t.to}:${t.kind}`);

/** The desk: triage routes to billing or refund; the refund needs approval. */
function desk(
  repository: SessionRepository,
  sessionId: string,
  effects: { refunds: number },
  models: Partial<Record<Role, Model>> = {},
): Graph {
  const defaults: Record<Role, Model> = {
    triage: scripted((r) => (/refund/i.test(text(r)) ? 'ROUTE: refund' : 'ROUTE: billing')),
    billing: scripted((r) => (looked(r) ? 'Billing fixed.' : { toolUses: [{ name: 'lookup', input: {} }] })),
    refund: scripted((r) => (refunded(r) ? 'Refunded.' : { toolUses: [{ name: 'refund', input: {} }] })),
  };
  const lookup = tool({
    name: 'lookup',
    description: 'lookup',
    inputSchema: z.object({}),
    callback: () => 'charged twice',
  });
  const refund = tool({
    name: 'refund',
    description: 'refund',
    inputSchema: z.object({}),
    needsApproval: true,
    callback: () => `refunded 42 (${++effects.refunds})`,
  });
  const routed = (to: string) => (s: GraphState) => (s.results['triage']?.text ?? '').includes(to);
  return new GraphBuilder()
    .setId('desk')
    .addNode(new Agent({ name: 'triage', model: models.triage ?? defaults.triage }))
    .addNode(new Agent({ name: 'billing', model: models.billing ?? defaults.billing, tools: [lookup] }))
    .addNode(new Agent({ name: 'refund', model: models.refund ?? defaults.refund, tools: [refund] }))
    .addEdge('triage', 'billing', routed('billing'))
    .addEdge('triage', 'refund', routed('refund'))
    .setSessionManager(new RepositorySessionManager({ sessionId, repository }))
    .build();
}

/** Runs a graph to its end: a finished run is read back, every approval is given. */
async function finish(graph: Graph, task = 'continue'): Promise<GraphResult> {
  const done = await graph.lastResult();
  if (done) return done;
  const waiting = await graph.pendingInterrupts();
  let result = await graph.invoke(
    waiting.length > 0
      ? waiting.map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: true } } }))
      : task,
  );
  while (result.status === 'interrupted' && result.interrupts) {
    result = await graph.invoke(
      result.interrupts.map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: true } } })),
    );
  }
  return result;
}

/** Time travel on a store: history, stateAt, forks (edited, paused, replayed), a swarm's, damaged steps. */
export function historyContract(store: StoreUnderTest): void {
  describe(`${store.name}: time travel`, () => {
    let storage: Storage;
    let repository: SessionRepository;
    beforeEach(async () => {
      storage = await store.fresh();
      repository = storage.repository();
    });
    afterEach(() => storage.dispose());

    it('a graph run: every step listed; forks replay to the original result, re-route when edited, answer a pause on their own', async () => {
      const effects = { refunds: 0 };
      const graph = desk(repository, 'orig', effects);
      const paused = await graph.invoke('Please refund order 42');
      expect(paused.status).toBe('interrupted');
      const pausedStep = (await graph.history()).at(-1)!.step;
      const original = await finish(graph);
      expect(original.status).toBe('completed');
      expect(effects.refunds).toBe(1);
      const history = await graph.history();
      expect(history.map((h) => h.step)).toEqual(history.map((_, i) => i));
      expect(history[1]).toMatchObject({ completed: ['triage'], waiting: ['refund'] });
      expect((await graph.stateAt(1)).agents['triage']?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      const before = JSON.stringify(await repository.readTransitions('orig', 'desk'));
      // Replay from step 1 with the recorded outputs: the original result, no refund repeated.
      const fork = await graph.fork({ step: 1, to: 'replay' });
      const replay = desk(repository, 'replay', effects, {
        triage: fork.recording.model('triage'),
        refund: fork.recording.model('refund'),
      });
      fork.recording.guard(replay.nodes);
      const replayed = await finish(replay);
      expect(path(replayed.transitions)).toEqual(path(original.transitions));
      expect(replayed.results['refund']?.text).toBe(original.results['refund']?.text);
      expect(effects.refunds).toBe(1);
      // Editing the triage's output at step 1 takes the other route.
      await graph.fork({ step: 1, to: 'billing', edit: { results: { triage: 'ROUTE: billing' } } });
      const other = await finish(desk(repository, 'billing', effects));
      expect(other.executionOrder).toEqual(['triage', 'billing']);
      // The run as it waited for approval, answered in a fork.
      await graph.fork({ step: pausedStep, to: 'pause' });
      const answered = await finish(desk(repository, 'pause', effects));
      expect(answered.status).toBe('completed');
      expect(effects.refunds).toBe(2);
      // The original session was only read.
      expect(JSON.stringify(await repository.readTransitions('orig', 'desk'))).toBe(before);
    });

    it('a swarm run: every step listed, a fork at the handoff replays to the same answer', async () => {
      const make = (sessionId: string, models: Partial<Record<'triage' | 'billing', Model>> = {}) =>
        new Swarm({
          id: 'sw',
          nodes: [
            new Agent({
              name: 'triage',
              model:
                models.triage ??
                scripted(() => ({ toolUses: [{ name: 'transfer_to_billing', input: { context: { order: '42' } } }] })),
            }),
            new Agent({ name: 'billing', model: models.billing ?? scripted(() => 'Billing answered.') }),
          ],
          sessionManager: new RepositorySessionManager({ sessionId, repository }),
        });
      const swarm = make('s1');
      const result = await swarm.invoke('help');
      expect(result.status).toBe('completed');
      const history = await swarm.history();
      expect(history.map((h) => h.current)).toContain('billing');
      const handoff = history.find((h) => h.transitions.some((t) => t.kind === 'handoff'))!;
      expect((await swarm.stateAt(handoff.step)).sharedContext).toEqual({ triage: { order: '42' } });
      const fork = await swarm.fork({ step: handoff.step, to: 's2' });
      const again = await make('s2', { billing: fork.recording.model('billing') }).invoke('continue');
      expect(again.results['billing']?.text).toBe('Billing answered.');
    });

    it('a fork is a session like any other the moment fork() returns: another writer runs it while the forking one stays open', async () => {
      // The README's sequence: fork, then build the graph on a new session manager for the fork and invoke it.
      // A new writer of the same storage is what a new FileSessionManager (or another process) is.
      const writer = () => (store.sharedWriters ? storage.repository() : repository);
      const effects = { refunds: 0 };
      const graph = desk(repository, 'one', effects);
      expect((await graph.invoke('My bill is wrong')).status).toBe('completed');
      const graphFork = await graph.fork({ step: 1, to: 'one-fork' });
      const again = await finish(
        desk(writer(), graphFork.sessionId, effects, { triage: graphFork.recording.model('triage') }),
      );
      expect(again.executionOrder).toEqual(['triage', 'billing']);
      // A fork made by another graph on the same session (the original's writer still open), run by a third writer.
      const reader = desk(writer(), 'one', effects);
      await reader.fork({ step: 2, to: 'one-fork-2' });
      const third = await finish(desk(writer(), 'one-fork-2', effects));
      expect(third.status).toBe('completed');
      // And a swarm's fork.
      const swarm = (repo: SessionRepository, sessionId: string) =>
        new Swarm({
          id: 'sw',
          nodes: [
            new Agent({
              name: 'triage',
              model: scripted(() => ({ toolUses: [{ name: 'transfer_to_billing', input: {} }] })),
            }),
            new Agent({ name: 'billing', model: scripted(() => 'Billing answered.') }),
          ],
          sessionManager: new RepositorySessionManager({ sessionId, repository: repo }),
        });
      const first = swarm(repository, 'sw-1');
      await first.invoke('help');
      const swarmFork = await first.fork({ step: 1, to: 'sw-1-fork' });
      const resumed = await swarm(writer(), swarmFork.sessionId).invoke('continue');
      expect(resumed.results['billing']?.text).toBe('Billing answered.');
    });

    it('a damaged or missing step is a SessionCorruptError naming it', async () => {
      const graph = desk(repository, 'hurt', { refunds: 0 });
      await graph.invoke('My bill is wrong');
      const steps = (await graph.history()).length;
      expect(steps).toBeGreaterThan(3);
      await repository.putNodeEntry('hurt', 'desk@run-000001', 'step-000000002', { not: 'a step' });
      await expect(graph.stateAt(2)).rejects.toBeInstanceOf(SessionCorruptError);
      await expect(graph.stateAt(2)).rejects.toThrow(/Step 2 \(run 1\) of orchestrator desk in session hurt/);
      await expect(graph.stateAt(1)).resolves.toMatchObject({ step: 1 });
      if (!storage.removeNodeEntry) return;
      await storage.removeNodeEntry('hurt', 'desk@run-000001', 'step-000000001');
      await expect(graph.stateAt(1)).rejects.toThrow(/Step 1 \(run 1\) .* is missing/);
      await expect(graph.history()).rejects.toBeInstanceOf(SessionCorruptError);
    });
  });
}
