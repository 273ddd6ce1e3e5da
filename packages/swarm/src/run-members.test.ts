import { Agent, InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { Swarm } from './index.js';

describe('the members of a swarm run', () => {
  it('are listed once per run in the run document; the state document does not carry them', async () => {
    const repository = new InMemorySessionRepository();
    const nodes = ['a', 'b', 'c'].map(
      (name, i) =>
        new Agent({
          name,
          model: new ScriptedModel([
            i === 0 ? { toolUses: [{ name: 'transfer_to_b', input: {} }] } : i === 1 ? 'answered' : 'unused',
          ]),
        }),
    );
    const sessionManager = new RepositorySessionManager({ sessionId: 's', repository });
    const result = await new Swarm({ id: 'desk', nodes, sessionManager }).invoke('hello');
    expect(result.status).toBe('completed');
    expect(result.transitions[0]?.details).toBeUndefined();
    expect((await repository.readMultiAgent('s', 'desk'))?.state).not.toHaveProperty('members');
    expect((await repository.readMultiAgent('s', 'desk@run'))?.state).toEqual({ members: ['a', 'b', 'c'] });
  });
});

describe('the node history of a swarm run', () => {
  it('is kept in the turns: each state document holds only its end, a new process gets it whole', async () => {
    const ring = (answers: boolean) =>
      ['a', 'b', 'c'].map(
        (name, i) =>
          new Agent({
            name,
            model: new ScriptedModel(
              answers ? [{ toolUses: [{ name: `transfer_to_${['b', 'c', 'a'][i]}`, input: {} }] }] : [],
              { loop: true },
            ),
          }),
      );
    const states: unknown[] = [];
    class Spy extends InMemorySessionRepository {
      override updateMultiAgent(...args: Parameters<InMemorySessionRepository['updateMultiAgent']>): Promise<void> {
        if (args[1].id === 'ring') states.push(args[1].state);
        return super.updateMultiAgent(...args);
      }
    }
    const spy = new Spy();
    const swarm = new Swarm({
      id: 'ring',
      nodes: ring(true),
      maxHandoffs: 9,
      maxIterations: 20,
      sessionManager: new RepositorySessionManager({ sessionId: 's', repository: spy }),
    });
    const result = await swarm.invoke('go round');
    expect(result.status).toBe('failed'); // the tenth transfer is over the limit
    expect(result.nodeHistory).toHaveLength(10);
    const lengths = states.map((s) => (s as { nodeHistory: string[] }).nodeHistory.length);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(2);
    const stored = (await spy.readMultiAgent('s', 'ring'))?.state as { nodeHistoryFrom?: number };
    expect(stored.nodeHistoryFrom).toBeGreaterThan(0);
    // Another process reads the run back whole.
    const again = new Swarm({
      id: 'ring',
      nodes: ring(false),
      sessionManager: new RepositorySessionManager({ sessionId: 's', repository: spy }),
    });
    expect((await again.lastResult())?.nodeHistory).toEqual(result.nodeHistory);
    expect((await again.history()).at(-1)?.nodeHistory).toEqual(result.nodeHistory);
  });
});
