import {
  Agent,
  BeforeNodeCallEvent,
  InMemorySessionRepository,
  RepositorySessionManager,
  messageText,
} from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, type Graph } from './index.js';

const agent = (name: string, script: ScriptedTurn[]): Agent => new Agent({ name, model: new ScriptedModel(script) });

function chain(
  repository: InMemorySessionRepository,
  scripts: Record<string, ScriptedTurn[]>,
): { graph: Graph; agents: Record<string, Agent> } {
  const agents = Object.fromEntries(Object.entries(scripts).map(([n, s]) => [n, agent(n, s)]));
  const builder = new GraphBuilder()
    .setId('pipeline')
    .setSessionManager(new RepositorySessionManager({ sessionId: 'sess', repository }));
  const names = Object.keys(agents);
  for (const n of names) builder.addNode(agents[n] as Agent);
  for (let i = 1; i < names.length; i++) builder.addEdge(names[i - 1] as string, names[i] as string);
  return { graph: builder.build(), agents };
}

describe('sessions', () => {
  it('persists the state, one entry per node, the transition history and each node agent', async () => {
    const repository = new InMemorySessionRepository();
    const { graph } = chain(repository, { a: ['A'], b: ['B'] });
    const result = await graph.invoke('task');
    const stored = await repository.readMultiAgent('sess', 'pipeline');
    expect(stored?.type).toBe('graph');
    expect(stored?.state).toMatchObject({
      status: 'completed',
      task: 'task',
      executionCount: 2,
      waiting: [],
      running: {},
    });
    const nodes = await repository.readNodeEntries('sess', 'pipeline');
    expect(nodes['b']).toMatchObject({
      result: { nodeId: 'b', status: 'completed', text: 'B', executionCount: 1 },
      order: [1],
    });
    const transitions = await repository.readTransitions('sess', 'pipeline');
    expect(transitions).toEqual(result.transitions);
    expect(transitions.map((t) => [t.seq, t.from, t.to, t.kind])).toEqual([
      [0, null, 'a', 'start'],
      [1, 'a', 'b', 'edge'],
      [2, 'b', null, 'complete'],
    ]);
    const messages = await repository.listMessages('sess', 'pipeline.b');
    expect(messages.map((m) => messageText(m.message))).toEqual([
      'Original Task: task\nInputs from previous nodes:\nFrom a:  - a: A',
      'B',
    ]);
  });

  it('resumes an interrupted run: completed nodes do not run again, the running node re-runs from its start', async () => {
    const repository = new InMemorySessionRepository();
    const first = chain(repository, { a: ['A'], b: [{ text: 'never', delayMs: 10_000 }], c: ['C'] });
    const controller = new AbortController();
    first.graph.hooks.addCallback(BeforeNodeCallEvent, (e) => {
      if (e.nodeId === 'b') setTimeout(() => controller.abort(), 10);
    });
    const interrupted = await first.graph.invoke('task', { signal: controller.signal });
    expect(interrupted.status).toBe('interrupted');
    expect((await repository.readMultiAgent('sess', 'pipeline'))?.state).toMatchObject({
      status: 'interrupted',
      running: { b: { sources: ['a'] } },
    });

    // a new process: new agents, same graph id and session; `a` has no script left, so running it again would fail
    const second = chain(repository, { a: [], b: ['B'], c: ['C'] });
    const result = await second.graph.invoke('ignored: the stored task is resumed');
    expect(result.status).toBe('completed');
    expect(result.executionOrder).toEqual(['a', 'b', 'c']);
    expect(result.results['a']?.text).toBe('A');
    expect(result.executionCount).toBe(3);
    expect(second.agents['b']?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messageText(second.agents['c']?.messages[0])).toContain('Original Task: task');
    expect(result.transitions.map((t) => t.kind)).toEqual(['start', 'edge', 'resume', 'edge', 'complete']);
    expect((await repository.listMessages('sess', 'pipeline.b')).map((m) => m.message.role)).toEqual([
      'user',
      'assistant',
    ]);
  });

  it('starts a finished run fresh, and node agents keep their persisted history', async () => {
    const repository = new InMemorySessionRepository();
    await chain(repository, { a: ['A1'], b: ['B1'] }).graph.invoke('one');
    const next = chain(repository, { a: ['A2'], b: ['B2'] });
    const result = await next.graph.invoke('two');
    expect(result.executionOrder).toEqual(['a', 'b']);
    expect(result.results['b']?.text).toBe('B2');
    expect(result.transitions.map((t) => t.seq)).toEqual([0, 1, 2]);
    expect(next.agents['a']?.messages.map((m) => messageText(m))).toEqual(['one', 'A1', 'two', 'A2']);
  });

  it('a crash after a node entry is written but before the state document commits it re-runs that node once', async () => {
    // The process "dies" right after b's entry is stored: the state document write that would commit b never completes.
    class DyingRepository extends InMemorySessionRepository {
      dead = false;
      armed = true;
      override async putNodeEntry(...args: Parameters<InMemorySessionRepository['putNodeEntry']>): Promise<void> {
        await super.putNodeEntry(...args);
        if (args[2] === 'b' && this.armed) [this.dead, this.armed] = [true, false];
      }
      override async updateMultiAgent(
        ...args: Parameters<InMemorySessionRepository['updateMultiAgent']>
      ): Promise<void> {
        if (this.dead) return new Promise(() => undefined);
        return super.updateMultiAgent(...args);
      }
    }
    const repository = new DyingRepository();
    const first = chain(repository, { a: ['A'], b: ['B1'], c: ['never reached'] });
    void first.graph.invoke('task');
    await new Promise((r) => setTimeout(r, 50));
    expect(repository.dead).toBe(true);
    repository.dead = false;

    const second = chain(repository, { a: [], b: ['B2'], c: ['C'] });
    const result = await second.graph.invoke('task');
    expect(result.status).toBe('completed');
    expect(result.executionOrder).toEqual(['a', 'b', 'c']);
    expect(result.results['b']).toMatchObject({ text: 'B2', executionCount: 1 });
    expect(result.executionCount).toBe(3);
  });
});

describe('run start', () => {
  it('restores (or stores) the node agents several at once, not one after another', async () => {
    let inFlight = 0;
    let most = 0;
    class SlowReads extends InMemorySessionRepository {
      override async readAgent(...args: Parameters<InMemorySessionRepository['readAgent']>) {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return super.readAgent(...args);
      }
    }
    const repository = new SlowReads();
    const scripts = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`n${i}`, [`N${i}`]]));
    const { graph } = chain(repository, scripts);
    const result = await graph.invoke('task');
    expect(result.status).toBe('completed');
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
    for (let i = 0; i < 12; i++) expect(await repository.readAgent('sess', `pipeline.n${i}`)).toBeDefined();
  });
});
