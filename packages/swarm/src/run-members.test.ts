import { Agent, InMemorySessionRepository, RepositorySessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { Swarm } from './index.js';

describe('the members of a swarm run', () => {
  it('go with the run start transition, once per run; the state document does not carry them', async () => {
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
    const swarm = new Swarm({
      id: 'desk',
      nodes,
      sessionManager: new RepositorySessionManager({ sessionId: 's', repository }),
    });
    const result = await swarm.invoke('hello');
    expect(result.status).toBe('completed');
    expect(result.transitions[0]).toMatchObject({ kind: 'start', to: 'a', details: { members: ['a', 'b', 'c'] } });
    expect(result.transitions.slice(1).every((t) => t.details?.['members'] === undefined)).toBe(true);
    const stored = await repository.readMultiAgent('s', 'desk');
    expect(stored?.state).not.toHaveProperty('members');
    expect((await repository.readTransitions('s', 'desk'))[0]?.details).toEqual({ members: ['a', 'b', 'c'] });
  });
});
