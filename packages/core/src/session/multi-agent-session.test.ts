import { describe, expect, it } from 'vitest';
import {
  Agent,
  ConfigurationError,
  InMemorySessionRepository,
  RepositorySessionManager,
  SlidingWindowConversationManager,
  messageText,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

describe('MultiAgentSession', () => {
  it('round-trips state, node entries, transitions and member agents through a new manager', async () => {
    const repository = new InMemorySessionRepository();
    const sm = new RepositorySessionManager({ sessionId: 'run-1', repository });
    const session = await sm.openMultiAgent('graph1', 'graph');
    expect(await session.load()).toBeUndefined();
    await session.saveState({ status: 'executing', task: 'write', completed: [] });

    const researcher = new Agent({ name: 'researcher', model: new ScriptedModel(['facts']) });
    await session.attachAgent(researcher, 'researcher', { restore: true });
    researcher.state.set('notes', 3);
    await researcher.invoke('research');
    await session.saveNode('researcher', { status: 'completed', output: 'facts' });
    // Parallel callers need not await each other: seq numbers follow call order.
    const [t0, t1] = await Promise.all([
      session.appendTransition({ from: null, to: 'researcher', kind: 'start', reason: 'entry point' }),
      session.appendTransition({ from: 'researcher', to: 'writer', kind: 'edge', reason: 'always' }),
      session.saveState({ status: 'executing', task: 'write', completed: ['researcher'] }),
    ]);
    expect([t0.seq, t1.seq]).toEqual([0, 1]);
    expect((await repository.readSession('run-1'))?.session_type).toBe('MULTI_AGENT');

    const reopened = await new RepositorySessionManager({ sessionId: 'run-1', repository }).openMultiAgent(
      'graph1',
      'graph',
    );
    const snapshot = await reopened.load();
    expect(snapshot?.state).toEqual({ status: 'executing', task: 'write', completed: ['researcher'] });
    expect(snapshot?.nodes).toEqual({ researcher: { status: 'completed', output: 'facts' } });
    expect(snapshot?.transitions.map((t) => [t.seq, t.from, t.to, t.kind])).toEqual([
      [0, null, 'researcher', 'start'],
      [1, 'researcher', 'writer', 'edge'],
    ]);
    const again = new Agent({ name: 'researcher', model: new ScriptedModel(['more']) });
    await reopened.attachAgent(again, 'researcher', { restore: true });
    expect(again.messages.map((m) => messageText(m))).toEqual(['research', 'facts']);
    expect(again.state.get('notes')).toBe(3);
    expect((await reopened.appendTransition({ from: 'writer', to: null, kind: 'complete', reason: 'done' })).seq).toBe(
      2,
    );
  });

  it('continues the transition numbering without load(), and starts over after clear()', async () => {
    const repository = new InMemorySessionRepository();
    const first = await new RepositorySessionManager({ sessionId: 's', repository }).openMultiAgent('sw', 'swarm');
    await first.saveState({ n: 1 });
    await first.appendTransition({ from: null, to: 'a', kind: 'start', reason: '' });
    const second = await new RepositorySessionManager({ sessionId: 's', repository }).openMultiAgent('sw', 'swarm');
    await second.saveState({ n: 2 }); // updates instead of failing as a duplicate create
    expect((await second.appendTransition({ from: 'a', to: 'b', kind: 'handoff', reason: 'billing' })).seq).toBe(1);
    await second.clear();
    expect(await second.load()).toBeUndefined();
    await second.saveState({ n: 3 });
    expect((await second.appendTransition({ from: null, to: 'a', kind: 'start', reason: '' })).seq).toBe(0);
  });

  it('resets a member agent: what is stored becomes its current history', async () => {
    const repository = new InMemorySessionRepository();
    const session = await new RepositorySessionManager({ sessionId: 's', repository }).openMultiAgent('g', 'graph');
    await session.saveState({});
    const agent = new Agent({ model: new ScriptedModel(['one', 'two'], { loop: true }) });
    await session.attachAgent(agent, 'n1', { restore: true });
    await agent.invoke('first');
    agent.messages = [];
    await session.resetAgent(agent);
    await agent.invoke('second');
    expect((await repository.listMessages('s', 'g.n1')).map((m) => messageText(m.message))).toEqual(['second', 'two']);
    const fresh = new Agent({
      model: new ScriptedModel([]),
      messages: [{ role: 'user', content: [{ text: 'seed' }] }],
    });
    await session.attachAgent(fresh, 'n1', { restore: false });
    expect((await repository.listMessages('s', 'g.n1')).map((m) => messageText(m.message))).toEqual(['seed']);
  });

  it('resets a member whose window already removed messages so that the next restore gets exactly its history', async () => {
    const repository = new InMemorySessionRepository();
    const open = async () =>
      await new RepositorySessionManager({ sessionId: 's', repository }).openMultiAgent('g', 'graph');
    const session = await open();
    await session.saveState({});
    const agent = new Agent({
      model: new ScriptedModel(['a1', 'a2', 'a3']),
      conversationManager: new SlidingWindowConversationManager({ windowSize: 2 }),
    });
    await session.attachAgent(agent, 'w', { restore: true });
    for (const q of ['q1', 'q2', 'q3']) await agent.invoke(q);
    expect(agent.conversationManager.removedMessageCount).toBe(4);
    await session.resetAgent(agent);
    const restored = new Agent({
      model: new ScriptedModel([]),
      conversationManager: new SlidingWindowConversationManager({ windowSize: 2 }),
    });
    await (await open()).attachAgent(restored, 'w', { restore: true });
    expect(restored.messages.map((m) => messageText(m))).toEqual(['q3', 'a3']);
  });

  it('returns the same handle for the same orchestrator id and refuses another kind under it', async () => {
    const sm = new RepositorySessionManager({ sessionId: 's', repository: new InMemorySessionRepository() });
    expect(await sm.openMultiAgent('o', 'graph')).toBe(await sm.openMultiAgent('o', 'graph'));
    await expect(sm.openMultiAgent('o', 'swarm')).rejects.toBeInstanceOf(ConfigurationError);
    await expect(sm.openMultiAgent('../o', 'graph')).rejects.toThrow(/Invalid orchestrator id/);
  });
});
