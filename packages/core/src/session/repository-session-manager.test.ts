import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  BeforeToolCallEvent,
  ConfigurationError,
  InMemorySessionRepository,
  NullConversationManager,
  RepositorySessionManager,
  SessionConflictError,
  SlidingWindowConversationManager,
  messageText,
  tool,
  type Message,
  type SessionRepository,
} from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const texts = (messages: Message[]): string[] => messages.map((m) => messageText(m));
const manager = (repository: SessionRepository, sessionId = 's1'): RepositorySessionManager =>
  new RepositorySessionManager({ sessionId, repository });
const echo = tool({
  name: 'echo',
  description: 'echo',
  inputSchema: z.object({ text: z.string() }),
  callback: ({ text }) => text,
});

describe('RepositorySessionManager', () => {
  it('persists each message and the state, and restores them into a new agent', async () => {
    const repository = new InMemorySessionRepository();
    const first = new Agent({
      model: new ScriptedModel(['競馬がご趣味なんですね!']),
      sessionManager: manager(repository),
    });
    first.state.set('session_count', 1);
    await first.invoke('私の趣味は競馬なんですよ!');
    const stored = await repository.listMessages('s1', 'default');
    expect(stored.map((m) => m.message_id)).toEqual([0, 1]);
    expect(stored[0]).toMatchObject({
      message: { role: 'user', content: [{ text: '私の趣味は競馬なんですよ!' }] },
      redact_message: null,
    });
    expect((await repository.readSession('s1'))?.session_type).toBe('AGENT');

    const model = new ScriptedModel(['あなたの趣味は競馬です。']);
    const second = new Agent({ model, sessionManager: manager(repository) });
    await second.initialize();
    expect(texts(second.messages)).toEqual(['私の趣味は競馬なんですよ!', '競馬がご趣味なんですね!']);
    expect(second.state.get()).toEqual({ session_count: 1 });
    await second.invoke('私の趣味はなんだっけ?');
    expect(texts(model.requests[0]?.messages ?? [])).toEqual([
      '私の趣味は競馬なんですよ!',
      '競馬がご趣味なんですね!',
      '私の趣味はなんだっけ?',
    ]);
    expect((await repository.listMessages('s1', 'default')).map((m) => m.message_id)).toEqual([0, 1, 2, 3]);
  });

  it('restores the conversation-manager state and only the messages after removedMessageCount', async () => {
    const repository = new InMemorySessionRepository();
    const first = new Agent({
      model: new ScriptedModel(['a1', 'a2', 'a3']),
      conversationManager: new SlidingWindowConversationManager({ windowSize: 4 }),
      sessionManager: manager(repository),
    });
    for (const q of ['q1', 'q2', 'q3']) await first.invoke(q);
    expect(first.conversationManager.removedMessageCount).toBe(2);
    expect((await repository.readAgent('s1', 'default'))?.conversation_manager_state).toEqual({
      __name__: 'SlidingWindowConversationManager',
      removed_message_count: 2,
    });
    expect(await repository.listMessages('s1', 'default')).toHaveLength(6);

    const cm = new SlidingWindowConversationManager({ windowSize: 4 });
    const second = new Agent({
      model: new ScriptedModel(['a4']),
      conversationManager: cm,
      sessionManager: manager(repository),
    });
    await second.initialize();
    expect(cm.removedMessageCount).toBe(2);
    expect(texts(second.messages)).toEqual(['q2', 'a2', 'q3', 'a3']);
    await second.invoke('q4');
    expect((await repository.listMessages('s1', 'default', { offset: 6 })).map((m) => messageText(m.message))).toEqual([
      'q4',
      'a4',
    ]);
  });

  it('refuses to restore with another kind of conversation manager', async () => {
    const repository = new InMemorySessionRepository();
    await new Agent({ model: new ScriptedModel(['a']), sessionManager: manager(repository) }).invoke('q');
    const other = new Agent({
      model: new ScriptedModel([]),
      conversationManager: new NullConversationManager(),
      sessionManager: manager(repository),
    });
    await expect(other.initialize()).rejects.toThrow(/SlidingWindowConversationManager/);
  });

  it('stores a redaction and restores the redacted message', async () => {
    const repository = new InMemorySessionRepository();
    const sm = manager(repository);
    const agent = new Agent({
      model: new ScriptedModel(['Your card 4111 1111 1111 1111 is noted.']),
      sessionManager: sm,
    });
    await agent.invoke('My card is 4111 1111 1111 1111');
    await sm.redactLatestMessage(agent, { role: 'assistant', content: [{ text: '[redacted]' }] });
    const row = await repository.readMessage('s1', 'default', 1);
    expect(messageText(row?.message as Message)).toContain('4111');
    expect(row?.redact_message).toEqual({ role: 'assistant', content: [{ text: '[redacted]' }] });
    const restored = new Agent({ model: new ScriptedModel([]), sessionManager: manager(repository) });
    await restored.initialize();
    expect(texts(restored.messages)).toEqual(['My card is 4111 1111 1111 1111', '[redacted]']);
  });

  it('repairs a session that ended inside a tool call with an error result, and stores it', async () => {
    const repository = new InMemorySessionRepository();
    const hang = tool({
      name: 'hang',
      description: 'never returns',
      inputSchema: z.object({}),
      callback: () => new Promise<string>(() => {}),
    });
    const crashed = new Agent({
      model: new ScriptedModel([{ toolUses: [{ name: 'hang', toolUseId: 't1' }] }]),
      tools: [hang],
      sessionManager: manager(repository),
    });
    const reached = new Promise<void>((resolve) => crashed.hooks.addCallback(BeforeToolCallEvent, () => resolve()));
    void crashed.invoke('run it');
    await reached; // the "process" stops here: the toolUse is stored, its result never will be

    const model = new ScriptedModel(['The tool was interrupted; shall I retry?']);
    const restored = new Agent({ model, tools: [hang], sessionManager: manager(repository) });
    await restored.initialize();
    const last = restored.messages[2];
    expect(last?.content[0]).toEqual({
      toolResult: {
        toolUseId: 't1',
        status: 'error',
        content: [{ text: 'Tool call interrupted: the session ended before the tool finished.' }],
      },
    });
    expect((await repository.listMessages('s1', 'default')).map((m) => m.message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    await restored.invoke('what happened?');
    expect(model.requests[0]?.messages).toHaveLength(4);
  });

  it('repairs tool pairs broken in the middle or cut at the start without shifting stored ids', async () => {
    const repository = new InMemorySessionRepository();
    const at = new Date().toISOString();
    await repository.createSession({ session_id: 's1', session_type: 'AGENT', created_at: at, updated_at: at });
    await repository.createAgent('s1', {
      agent_id: 'default',
      state: {},
      conversation_manager_state: {},
      created_at: at,
      updated_at: at,
    });
    const history: Message[] = [
      { role: 'user', content: [{ toolResult: { toolUseId: 'gone', status: 'success', content: [{ text: 'x' }] } }] },
      {
        role: 'assistant',
        content: [{ text: 'ok' }, { toolUse: { toolUseId: 'u1', name: 'echo', input: { text: 'a' } } }],
      },
      { role: 'user', content: [{ text: 'never mind' }] },
      { role: 'assistant', content: [{ text: 'fine' }] },
    ];
    for (const [i, message] of history.entries()) {
      await repository.createMessage('s1', 'default', {
        message,
        message_id: i,
        redact_message: null,
        created_at: at,
        updated_at: at,
      });
    }
    const agent = new Agent({ model: new ScriptedModel(['next']), tools: [echo], sessionManager: manager(repository) });
    await agent.initialize();
    expect(agent.messages).toHaveLength(4);
    expect(agent.messages[0]?.content[0]).toMatchObject({ text: expect.stringContaining('gone') });
    expect(agent.messages[2]?.content.map((b) => Object.keys(b)[0])).toEqual(['toolResult', 'text']);
    await agent.invoke('again');
    expect((await repository.listMessages('s1', 'default')).map((m) => m.message_id)).toEqual([0, 1, 2, 3, 4, 5]);
    expect((await repository.readMessage('s1', 'default', 0))?.message).toEqual(history[0]);
  });

  it('refuses a second agent with the same id in one session, and accepts distinct ids', async () => {
    const repository = new InMemorySessionRepository();
    const sm = manager(repository);
    const a = new Agent({ model: new ScriptedModel(['a']), sessionManager: sm });
    const b = new Agent({ model: new ScriptedModel(['b']), sessionManager: sm });
    await a.invoke('hi');
    const error = await b.invoke('hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String(error)).toMatch(/already holds an agent with id "default"/);
    const c = new Agent({ id: 'helper', model: new ScriptedModel(['c']), sessionManager: sm });
    await c.invoke('hi');
    expect(await repository.listMessages('s1', 'helper')).toHaveLength(2);
    expect(await repository.listMessages('s1', 'default')).toHaveLength(2);
  });

  it('refuses two agents initializing with the same id at the same time', async () => {
    const sm = manager(new InMemorySessionRepository());
    const results = await Promise.allSettled([
      new Agent({ model: new ScriptedModel([]), sessionManager: sm }).initialize(),
      new Agent({ model: new ScriptedModel([]), sessionManager: sm }).initialize(),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('stores a direct tool call made before the first invocation after the restored history', async () => {
    const repository = new InMemorySessionRepository();
    await new Agent({ model: new ScriptedModel(['a']), tools: [echo], sessionManager: manager(repository) }).invoke(
      'q',
    );
    const agent = new Agent({ model: new ScriptedModel([]), tools: [echo], sessionManager: manager(repository) });
    await agent.tool['echo']?.({ text: 'hi' });
    expect(agent.messages).toHaveLength(6);
    expect(texts(agent.messages).slice(0, 2)).toEqual(['q', 'a']);
    const stored = await repository.listMessages('s1', 'default');
    expect(stored.map((m) => m.message)).toEqual(agent.messages);
  });

  it('lets the restore error surface when the session cannot be read', async () => {
    const repository = new InMemorySessionRepository();
    const failing: SessionRepository = Object.assign(Object.create(repository) as SessionRepository, {
      readSession: () => Promise.reject(new SessionConflictError('held by another process')),
    });
    const agent = new Agent({ model: new ScriptedModel(['a']), sessionManager: manager(failing) });
    await expect(agent.invoke('q')).rejects.toBeInstanceOf(SessionConflictError);
  });

  it('begins the repository view before it reads the session (once), and release()/close() give the claim up', async () => {
    const calls: string[] = [];
    class Recording extends InMemorySessionRepository {
      async beginView(id: string): Promise<void> {
        calls.push(`beginView ${id}`);
      }
      async release(id: string): Promise<void> {
        calls.push(`release ${id}`);
      }
      override readSession(id: string): ReturnType<InMemorySessionRepository['readSession']> {
        calls.push(`readSession ${id}`);
        return super.readSession(id);
      }
    }
    const m = manager(new Recording());
    const agent = new Agent({ model: new ScriptedModel(['a', 'b']), sessionManager: m });
    await agent.invoke('q');
    await m.openMultiAgent('flow', 'graph');
    await m.release();
    await agent.invoke('again');
    await m.close();
    expect(calls).toEqual(['beginView s1', 'readSession s1', 'release s1', 'release s1']);
  });

  it('validates its options', () => {
    expect(
      () => new RepositorySessionManager({ sessionId: '../x', repository: new InMemorySessionRepository() }),
    ).toThrow(/Invalid session id/);
    expect(() => new RepositorySessionManager({} as never)).toThrow(ConfigurationError);
  });
});
