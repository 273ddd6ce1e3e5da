import { describe, expect, it } from 'vitest';
import { InMemorySessionRepository, RepositorySessionManager, type NodeTransition } from '../index.js';

/** A repository that loses every transition append (a writer killed right after its commit point). */
class CutRepository extends InMemorySessionRepository {
  cut = false;
  override appendTransitions(sessionId: string, id: string, transitions: readonly NodeTransition[]): Promise<void> {
    return this.cut ? Promise.resolve() : super.appendTransitions(sessionId, id, transitions);
  }
}

const open = (repository: InMemorySessionRepository) =>
  new RepositorySessionManager({ sessionId: 's', repository }).openMultiAgent('o', 'swarm');

describe('MultiAgentSession run protocol', () => {
  it('commitRunStep numbers the transitions and names them in the state document', async () => {
    const repository = new InMemorySessionRepository();
    const session = await open(repository);
    const first = await session.commitRunStep({
      state: { n: 0 },
      transitions: [{ from: null, to: 'a', kind: 'start', reason: 'task' }],
    });
    const second = await session.commitRunStep({
      state: { n: 1 },
      transitions: [
        { from: 'a', to: 'b', kind: 'handoff', reason: 'billing', details: { message: 'double charge' } },
        { from: 'b', to: null, kind: 'complete', reason: 'done' },
      ],
    });
    await session.settle();
    expect([...first, ...second].map((t) => t.seq)).toEqual([0, 1, 2]);
    const stored = await repository.readMultiAgent('s', 'o');
    expect(stored?.state).toEqual({
      n: 1,
      runNumber: 1,
      step: 1,
      transitionCount: 3,
      lastTransitions: [
        { from: 'a', to: 'b', kind: 'handoff', reason: 'billing', details: { message: 'double charge' } },
        { from: 'b', to: null, kind: 'complete', reason: 'done' },
      ],
    });
  });

  it('repairTail appends the committed transitions a crash cut, details included, once', async () => {
    const repository = new CutRepository();
    const session = await open(repository);
    await session.commitRunStep({ state: {}, transitions: [{ from: null, to: 'a', kind: 'start', reason: 'task' }] });
    await session.settle();
    repository.cut = true;
    await session.commitRunStep({
      state: {},
      transitions: [{ from: 'a', to: 'b', kind: 'handoff', reason: 'billing', details: { keys: ['order'] } }],
    });
    repository.cut = false;
    // A new process on the same store.
    const again = await open(repository);
    const snapshot = await again.load();
    expect(snapshot?.transitions.map((t) => t.kind)).toEqual(['start']);
    const repaired = await again.repairTail(snapshot!);
    expect(repaired.map((t) => [t.seq, t.kind, t.details])).toEqual([
      [0, 'start', undefined],
      [1, 'handoff', { keys: ['order'] }],
    ]);
    expect((await repository.readTransitions('s', 'o')).at(-1)?.details).toEqual({ keys: ['order'] });
    // Nothing left to repair: a second call writes nothing.
    const reloaded = await again.load();
    expect(await again.repairTail(reloaded!)).toHaveLength(2);
    expect(await repository.readTransitions('s', 'o')).toHaveLength(2);
  });
});
