import {
  Agent,
  ConfigurationError,
  InMemorySessionRepository,
  RepositorySessionManager,
  type JsonObject,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, type Graph } from './index.js';

/** Counts the writes of each node entry and keeps every state document written. */
class Recording extends InMemorySessionRepository {
  readonly entryWrites = new Map<string, number>();
  readonly states: JsonObject[] = [];
  override putNodeEntry(sessionId: string, id: string, nodeId: string, entry: JsonObject): Promise<void> {
    this.entryWrites.set(nodeId, (this.entryWrites.get(nodeId) ?? 0) + 1);
    return super.putNodeEntry(sessionId, id, nodeId, entry);
  }
  override createMultiAgent(...args: Parameters<InMemorySessionRepository['createMultiAgent']>): Promise<void> {
    this.states.push(args[1].state);
    return super.createMultiAgent(...args);
  }
  override updateMultiAgent(...args: Parameters<InMemorySessionRepository['updateMultiAgent']>): Promise<void> {
    this.states.push(args[1].state);
    return super.updateMultiAgent(...args);
  }
}

function chain(repository: InMemorySessionRepository, n: number, answers: string[] = []): Graph {
  const builder = new GraphBuilder()
    .setId('chain')
    .setSessionManager(new RepositorySessionManager({ sessionId: 's', repository }));
  for (let i = 0; i < n; i++) {
    builder.addNode(new Agent({ name: `n${i}`, model: new ScriptedModel([answers[i] ?? `done ${i}`]) }));
    if (i > 0) builder.addEdge(`n${i - 1}`, `n${i}`);
  }
  return builder.build();
}

describe('the run entries of a graph session', () => {
  it('stores the shape once per run, in the run.shape entry, and no state document carries it', async () => {
    const repository = new Recording();
    const result = await chain(repository, 5).invoke('go');
    expect(result.status).toBe('completed');
    expect(repository.entryWrites.get('run.shape')).toBe(1);
    expect(repository.states.length).toBeGreaterThan(5);
    for (const state of repository.states) expect(state).not.toHaveProperty('shape');
    const entries = await repository.readNodeEntries('s', 'chain');
    expect(entries['run.shape']).toEqual({
      nodes: ['n0', 'n1', 'n2', 'n3', 'n4'],
      edges: [0, 1, 2, 3].map((i) => ({ from: `n${i}`, to: `n${i + 1}`, conditional: false, join: false })),
      entryPoints: ['n0'],
    });
    expect(Object.keys(result.results)).not.toContain('run.shape');
    // The next run writes its own.
    await chain(repository, 5).invoke('again');
    expect(repository.entryWrites.get('run.shape')).toBe(2);
  });

  it('a run resumed in a new process keeps run.shape out of its results', async () => {
    const repository = new Recording();
    const stopped = await chain(repository, 3).invoke('go', { budget: { modelCalls: 1 } });
    expect(stopped.status).toBe('budgetExceeded');
    const resumed = await chain(repository, 3, ['unused', 'second', 'third']).invoke('go');
    expect(resumed.status).toBe('completed');
    expect(Object.keys(resumed.results).sort()).toEqual(['n0', 'n1', 'n2']);
    expect(resumed.results['n2']?.text).toBe('third');
  });

  it('refuses a node id starting with "run." when the graph has a session', () => {
    const build = () =>
      new GraphBuilder()
        .addNode(new Agent({ name: 'run.shape', model: new ScriptedModel([]) }))
        .setSessionManager(
          new RepositorySessionManager({ sessionId: 's', repository: new InMemorySessionRepository() }),
        )
        .build();
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/starts with "run\."/);
    // Without a session nothing is stored under it.
    expect(
      new GraphBuilder().addNode(new Agent({ name: 'run.shape', model: new ScriptedModel([]) })).build().nodes.size,
    ).toBe(1);
  });
});
