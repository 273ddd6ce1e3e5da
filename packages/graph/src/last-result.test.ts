import { InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, type Graph } from './index.js';
import { DyingRepository, fastAgent } from './test-support/testing-models.js';

const build = (repository: InMemorySessionRepository): Graph => {
  const b = new GraphBuilder()
    .setId('g')
    .setSessionManager(new RepositorySessionManager({ sessionId: 's', repository }));
  for (const id of ['a', 'b', 'c']) b.addNode(fastAgent(id, 'tick', undefined, `${id} says hi`), id);
  return b.addEdge('a', 'b').addEdge('a', 'c').build();
};

describe('lastResult', () => {
  it('gives a new process the stored result of the last finished run, without running anything', async () => {
    const repository = new InMemorySessionRepository();
    const first = await build(repository).invoke('task');
    const later = build(repository);
    const stored = await later.lastResult();
    expect(stored?.status).toBe('completed');
    expect(stored?.executionOrder).toEqual(first.executionOrder);
    expect(stored?.results['c']?.text).toBe('c says hi');
    expect(stored?.transitions).toEqual(first.transitions);
    expect(stored?.accumulatedUsage).toEqual(first.accumulatedUsage);
  });

  it('is the in-process result after invoke, and undefined for an unfinished stored run', async () => {
    const repository = new DyingRepository();
    const graph = build(repository);
    expect(await graph.lastResult()).toBeUndefined();
    repository.dieAt = (w) => w.kind === 'node' && w.nodeId === 'b';
    await expect(graph.invoke('task')).rejects.toThrow('the process died');
    repository.restart();
    expect(await build(repository).lastResult()).toBeUndefined();
    const again = build(repository);
    const result = await again.invoke('task');
    expect(await again.lastResult()).toBe(result);
  });

  it('completes the history when the process died between committing the end and appending its transition', async () => {
    const repository = new DyingRepository();
    const expected = (await build(new InMemorySessionRepository()).invoke('task')).transitions.map((t) => t.kind);
    repository.dieAt = (w) => w.kind === 'transition' && repository.lastStateStatus === 'completed';
    await expect(build(repository).invoke('task')).rejects.toThrow('the process died');
    repository.restart();
    const stored = await build(repository).lastResult();
    expect(stored?.transitions.map((t) => t.kind)).toEqual(expected);
    expect((await repository.readTransitions('s', 'g')).map((t) => t.kind)).toEqual(expected);
  });
});
