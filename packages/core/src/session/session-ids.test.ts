import { describe, expect, it } from 'vitest';
import { Agent, InMemorySessionRepository, MultiAgentSession, SessionNotFoundError, checkSessionId } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// Found by the bad-input fuzz (test/reliability).

describe('session ids in error messages', () => {
  it('shows a 10 kB id cut short', () => {
    const error = ((): unknown => {
      try {
        checkSessionId('x'.repeat(10_240), 'session id');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(SessionNotFoundError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^Invalid session id "x{76}\.\.\. \(10242 characters\): use 1-200 characters/,
    );
  });

  it('refuses an orchestrator id ending in "." when a member agent is stored, naming the orchestrator id (was "Invalid agent id name..writer")', async () => {
    const session = new MultiAgentSession(new InMemorySessionRepository(), 's', 'name.', 'graph');
    const member = new Agent({ name: 'writer', model: new ScriptedModel(['ok']) });
    await expect(session.attachAgent(member, 'writer', { restore: true })).rejects.toSatisfy(
      (e) => SessionNotFoundError.is(e) && /Invalid orchestrator id "name\."/.test((e as Error).message),
    );
  });
});
