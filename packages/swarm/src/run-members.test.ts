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
