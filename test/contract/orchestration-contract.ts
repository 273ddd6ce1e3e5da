import { Agent, messageText, RepositorySessionManager, tool, type SessionRepository } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { Swarm } from '@skein/swarm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeRepository, type Storage, type StoreUnderTest } from './store-under-test.js';

/** Agents, a Graph and a Swarm with ScriptedModels on a store: what they store and what a new process restores. */
export function orchestrationContract(store: StoreUnderTest): void {
  describe(`${store.name}: agents and orchestrators`, () => {
    let storage: Storage;
    let current: SessionRepository;
    /** The repository a "new process" uses: a new one on the same storage (the in-memory store keeps its one). */
    const reopen = async (): Promise<SessionRepository> => {
      if (!store.sharedWriters) return current;
      await closeRepository(current);
      current = storage.repository();
      return current;
    };
    const manager = (repository: SessionRepository, sessionId = 's') =>
      new RepositorySessionManager({ sessionId, repository });
    beforeEach(async () => {
      storage = await store.fresh();
      current = storage.repository();
    });
    afterEach(() => storage.dispose());

    it('an agent: messages, state and a redaction are restored by a new process', async () => {
      const sm = manager(current);
      const agent = new Agent({ model: new ScriptedModel(['Noted.', 'Horse racing.']), sessionManager: sm });
      await agent.invoke('My hobby is horse racing. Card 4111.');
      agent.state.set('tier', 'gold');
      await agent.invoke('What is my hobby?');
      await sm.redactLatestMessage(agent, { role: 'assistant', content: [{ text: '[redacted]' }] });
      const again = new Agent({ model: new ScriptedModel([]), sessionManager: manager(await reopen()) });
      await again.initialize();
      expect(again.messages.map((m) => messageText(m))).toEqual([
        'My hobby is horse racing. Card 4111.',
        'Noted.',
        'What is my hobby?',
        '[redacted]',
      ]);
      expect(again.state.get('tier')).toBe('gold');
    });

    it('an agent waiting for an approval resumes in a new process; the tool runs once', async () => {
      let refunds = 0;
      const refund = tool({
        name: 'refund',
        description: 'refund an order',
        inputSchema: z.object({ order: z.string() }),
        needsApproval: true,
        callback: () => `refund ${++refunds}`,
      });
      const script = [{ toolUses: [{ name: 'refund', input: { order: '42' }, toolUseId: 't1' }] }, 'Refunded.'];
      const first = new Agent({ model: new ScriptedModel(script), tools: [refund], sessionManager: manager(current) });
      const paused = await first.invoke('Refund order 42');
      expect(paused.stopReason).toBe('interrupt');
      const second = new Agent({
        model: new ScriptedModel(script.slice(1)),
        tools: [refund],
        sessionManager: manager(await reopen()),
      });
      await second.initialize();
      const [waiting] = second.interrupts;
      expect(waiting?.name).toBe('approval');
      const done = await second.invoke([
        { interruptResponse: { interruptId: waiting!.id, response: { approved: true } } },
      ]);
      expect(String(done)).toBe('Refunded.');
      expect(refunds).toBe(1);
      const third = new Agent({
        model: new ScriptedModel([]),
        tools: [refund],
        sessionManager: manager(await reopen()),
      });
      await third.initialize();
      expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    });

    it('a Graph stopped by its budget resumes in a new process at the node that was cut, with its transitions and node entries stored', async () => {
      const build = (repository: SessionRepository, models: Record<'a' | 'b', ScriptedModel>) =>
        new GraphBuilder()
          .addNode(new Agent({ name: 'a', model: models.a }))
          .addNode(new Agent({ name: 'b', model: models.b }))
          .addEdge('a', 'b')
          .setSessionManager(manager(repository))
          .build();
      const first = { a: new ScriptedModel(['a done']), b: new ScriptedModel(['b done']) };
      const stopped = await build(current, first).invoke('go', { budget: { modelCalls: 1 } });
      expect(stopped.status).toBe('budgetExceeded');
      const second = { a: new ScriptedModel([]), b: new ScriptedModel(['b done']) };
      const resumed = await build(await reopen(), second).invoke('go', { budget: { modelCalls: 5 } });
      expect(resumed.status).toBe('completed');
      expect(resumed.executionOrder).toEqual(['a', 'b']);
      expect(second.a.callCount).toBe(0);
      const reader = await reopen();
      const kinds = (await reader.readTransitions('s', 'graph')).map((t) => t.kind);
      expect(kinds[0]).toBe('start');
      expect(kinds.at(-1)).toBe('complete');
      expect(kinds).toContain('budget');
      expect(Object.keys(await reader.readNodeEntries('s', 'graph'))).toEqual(expect.arrayContaining(['a', 'b']));
      expect((await reader.listMessages('s', 'graph.b')).map((m) => messageText(m.message))).toContain('b done');
    });

    it('a Graph node waiting for an approval resumes in a new process; the refund runs once', async () => {
      let refunds = 0;
      const refund = tool({
        name: 'refund',
        description: 'refund',
        inputSchema: z.object({}),
        needsApproval: true,
        callback: () => `refund ${++refunds}`,
      });
      const build = (repository: SessionRepository, script: ConstructorParameters<typeof ScriptedModel>[0]) =>
        new GraphBuilder()
          .addNode(new Agent({ name: 'triage', model: new ScriptedModel(['REFUND']) }))
          .addNode(new Agent({ name: 'refund', model: new ScriptedModel(script), tools: [refund] }))
          .addEdge('triage', 'refund')
          .setSessionManager(manager(repository))
          .build();
      const script = [{ toolUses: [{ name: 'refund', input: {}, toolUseId: 'r1' }] }, 'Refunded.'];
      const paused = await build(current, script).invoke('refund please');
      expect(paused.status).toBe('interrupted');
      const graph = build(await reopen(), script.slice(1));
      const waiting = await graph.pendingInterrupts();
      expect(waiting.map((i) => i.name)).toEqual(['approval']);
      const done = await graph.invoke(
        waiting.map((i) => ({ interruptResponse: { interruptId: i.id, response: { approved: true } } })),
      );
      expect(done.status).toBe('completed');
      expect(refunds).toBe(1);
      const kinds = (await (await reopen()).readTransitions('s', 'graph')).map((t) => t.kind);
      expect(kinds).toEqual(expect.arrayContaining(['start', 'interrupt', 'resume', 'complete']));
    });

    it('a Swarm handoff: transitions, the task and each turn stored; the finished run is read back', async () => {
      const build = (repository: SessionRepository) =>
        new Swarm({
          id: 'desk',
          sessionManager: manager(repository),
          nodes: [
            new Agent({
              name: 'triage',
              model: new ScriptedModel([
                {
                  text: 'To billing.',
                  toolUses: [
                    {
                      name: 'transfer_to_billing',
                      input: { message: 'double charge', context: { order: '42' } },
                      toolUseId: 'h1',
                    },
                  ],
                },
              ]),
            }),
            new Agent({ name: 'billing', model: new ScriptedModel(['Refunded the duplicate.']) }),
          ],
        });
      const result = await build(current).invoke('I was charged twice');
      expect(result.status).toBe('completed');
      const reader = await reopen();
      expect((await reader.readTransitions('s', 'desk')).map((t) => `${t.from}>${t.to}:${t.kind}`)).toEqual([
        'null>triage:start',
        'triage>billing:handoff',
        'billing>null:complete',
      ]);
      const entries = await reader.readNodeEntries('s', 'desk');
      expect(Object.keys(entries)).toEqual(expect.arrayContaining(['run.task', 'run.turn.000000', 'run.turn.000001']));
      expect(JSON.stringify(entries['run.turn.000001'])).toContain('Refunded the duplicate.');
      const last = await build(reader).lastResult();
      expect(last?.status).toBe('completed');
    });
  });
}
