import { Agent, InMemorySessionRepository, RepositorySessionManager, type JsonObject } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, type Graph } from './index.js';

/** Keeps every state document stored, and counts the stored writes of each orchestrator record. */
class Recording extends InMemorySessionRepository {
  readonly states: JsonObject[] = [];
  readonly writes = new Map<string, number>();
  #count(id: string): void {
    this.writes.set(id, (this.writes.get(id) ?? 0) + 1);
  }
  override async createMultiAgent(...args: Parameters<InMemorySessionRepository['createMultiAgent']>): Promise<void> {
    await super.createMultiAgent(...args);
    this.#count(args[1].id);
    if (args[1].id === 'chain') this.states.push(args[1].state);
  }
  override async updateMultiAgent(...args: Parameters<InMemorySessionRepository['updateMultiAgent']>): Promise<void> {
    await super.updateMultiAgent(...args);
    this.#count(args[1].id);
    if (args[1].id === 'chain') this.states.push(args[1].state);
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

describe("the graph's run document", () => {
  it('holds the shape, written once per run; no state document carries it', async () => {
    const repository = new Recording();
    const result = await chain(repository, 5).invoke('go');
    expect(result.status).toBe('completed');
    expect(repository.writes.get('chain@run')).toBe(1);
    expect(repository.states.length).toBeGreaterThan(5);
    for (const state of repository.states) expect(state).not.toHaveProperty('shape');
    expect((await repository.readMultiAgent('s', 'chain@run'))?.state).toEqual({
      shape: {
        nodes: ['n0', 'n1', 'n2', 'n3', 'n4'],
        edges: [0, 1, 2, 3].map((i) => ({ from: `n${i}`, to: `n${i + 1}`, conditional: false, join: false })),
        entryPoints: ['n0'],
      },
    });
    expect(Object.keys(await repository.readNodeEntries('s', 'chain')).sort()).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    // The next run writes it again (the graph may have changed).
    await chain(repository, 5).invoke('again');
    expect(repository.writes.get('chain@run')).toBe(2);
  });

  it('a run resumed in a new process writes it again and completes', async () => {
    const repository = new Recording();
    const stopped = await chain(repository, 3).invoke('go', { budget: { modelCalls: 1 } });
    expect(stopped.status).toBe('budgetExceeded');
    const resumed = await chain(repository, 3, ['unused', 'second', 'third']).invoke('go');
    expect(resumed.status).toBe('completed');
    expect(resumed.results['n2']?.text).toBe('third');
    expect(repository.writes.get('chain@run')).toBe(2);
  });
});
