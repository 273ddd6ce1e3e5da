import { describe, expect, it } from 'vitest';
import {
  Agent,
  ConfigurationError,
  InMemorySessionRepository,
  RepositorySessionManager,
  SessionCorruptError,
  SlidingWindowConversationManager,
  SummarizingConversationManager,
  messageText,
  type ConversationManager,
  type JsonObject,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// Found by the bad-input fuzz (test/reliability): stored data a restore used to take as it was, then
// crash on (a content block that is not an object: a TypeError) or corrupt the store further (a
// removed-message count past the history: the next message stored after a gap no restore could read).

const at = '2025-01-01T00:00:00Z';

async function stored(
  content: unknown[] = [{ text: 'hello' }],
  cm: JsonObject = {},
): Promise<InMemorySessionRepository> {
  const repository = new InMemorySessionRepository();
  await repository.createSession({ session_id: 's', session_type: 'AGENT', created_at: at, updated_at: at });
  await repository.createAgent('s', {
    agent_id: 'default',
    state: {},
    conversation_manager_state: cm,
    created_at: at,
    updated_at: at,
  });
  await repository.createMessage('s', 'default', {
    message: { role: 'user', content: content as never },
    message_id: 0,
    redact_message: null,
    created_at: at,
    updated_at: at,
  });
  await repository.createMessage('s', 'default', {
    message: { role: 'assistant', content: [{ text: 'hi' }] },
    message_id: 1,
    redact_message: null,
    created_at: at,
    updated_at: at,
  });
  return repository;
}

const agentOn = (
  repository: InMemorySessionRepository,
  conversationManager: ConversationManager = new SlidingWindowConversationManager(),
): Agent =>
  new Agent({
    model: new ScriptedModel(['Again.']),
    conversationManager,
    sessionManager: new RepositorySessionManager({ sessionId: 's', repository }),
  });

const ids = async (repository: InMemorySessionRepository): Promise<number[]> =>
  (await repository.listMessages('s', 'default')).map((m) => m.message_id);

describe('restoring stored data that is not valid', () => {
  it.each([[5], [null], ['hi'], [{ text: 'a', toolUse: { toolUseId: 't', name: 'x', input: {} } }]])(
    'refuses a stored content block %j with SessionCorruptError naming the message, writing nothing',
    async (block) => {
      const repository = await stored([block]);
      const error = await agentOn(repository)
        .invoke('next')
        .catch((e: unknown) => e);
      expect(SessionCorruptError.is(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /Stored message 0 of agent default in session s is not valid: content\[0\]/,
      );
      expect(await ids(repository)).toEqual([0, 1]);
    },
  );

  it('refuses a removed-message count past the stored history instead of storing the next message after a gap', async () => {
    const repository = await stored(undefined, {
      __name__: 'SlidingWindowConversationManager',
      removed_message_count: 1_000_000_000,
    });
    const error = await agentOn(repository)
      .invoke('next')
      .catch((e: unknown) => e);
    expect(SessionCorruptError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/removed_message_count/);
    expect(await ids(repository)).toEqual([0, 1]);
  });

  it.each([2.5, -3, 'x'])('reads a removed-message count of %j as 0 (the whole history)', async (count) => {
    const repository = await stored(undefined, {
      __name__: 'SlidingWindowConversationManager',
      removed_message_count: count,
    });
    const agent = agentOn(repository);
    await agent.invoke('next');
    expect(agent.messages.map(messageText)).toEqual(['hello', 'hi', 'next', 'Again.']);
    expect(await ids(repository)).toEqual([0, 1, 2, 3]);
  });

  it('says to use the same conversation manager with a ConfigurationError (was a TypeError)', async () => {
    const repository = await stored(undefined, {
      __name__: 'SlidingWindowConversationManager',
      removed_message_count: 0,
    });
    const error = await agentOn(repository, new SummarizingConversationManager())
      .invoke('next')
      .catch((e: unknown) => e);
    expect(ConfigurationError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /written with a SlidingWindowConversationManager but this agent uses a SummarizingConversationManager/,
    );
  });

  it("refuses a waiting turn skein stored that is no longer valid, and ignores Strands' own interrupt_state", async () => {
    const repository = await stored();
    const record = (await repository.readAgent('s', 'default'))!;
    await repository.updateAgent('s', {
      ...record,
      _internal_state: { interrupt_state: { interrupts: 5, stored_from: 2 } },
    });
    const error = await agentOn(repository)
      .invoke('next')
      .catch((e: unknown) => e);
    expect(SessionCorruptError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /Agent default of session s holds a turn waiting for answers \(_internal_state.interrupt_state\) that is not valid/,
    );
    expect(await ids(repository)).toEqual([0, 1]);
    await repository.updateAgent('s', {
      ...record,
      _internal_state: { interrupt_state: { activated: false, interrupts: {}, context: {} } },
    });
    await agentOn(repository).invoke('next');
    expect(await ids(repository)).toEqual([0, 1, 2, 3]);
  });
});
