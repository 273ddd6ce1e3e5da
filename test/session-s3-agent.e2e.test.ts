import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import {
  Agent,
  NullConversationManager,
  SessionConflictError,
  tool,
  type Message,
  type SessionMessage,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { S3SessionManager, S3SessionRepository } from '@skein/session-s3';
import type { RgwServer } from '@skein/session-s3/testing';
import { rgwServer } from './servers/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// One real S3 server (Ceph radosgw started by @skein/session-s3/testing) for the whole file.
let server: RgwServer;
let bucket: string;
let raw: S3Client;
const managers: S3SessionManager[] = [];

beforeAll(async () => {
  server = await rgwServer();
  bucket = await server.createBucket('skein-agent');
  raw = server.client();
}, 600_000);

afterAll(async () => {
  for (const m of managers) m.destroy();
  raw?.destroy();
  await server?.stop();
}, 120_000);

function manager(sessionId: string, prefix = 'agents'): S3SessionManager {
  const m = new S3SessionManager({ sessionId, bucket, prefix, clientConfig: server.clientConfig() });
  managers.push(m);
  return m;
}

async function keys(prefix: string): Promise<string[]> {
  const out: string[] = [];
  let token: string | undefined;
  do {
    const page = await raw.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
    );
    out.push(...(page.Contents ?? []).map((c) => c.Key ?? '').filter((k) => !k.endsWith('/.skein-lease.json')));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out.sort();
}

const textOf = (m: Message | undefined): string => (m?.content ?? []).map((b) => ('text' in b ? b.text : '')).join('');

describe('S3SessionManager with an Agent', () => {
  it('persists messages and state, and a new agent on the same session restores them', async () => {
    const first = new Agent({
      model: new ScriptedModel(['Horse racing is a deep hobby!']),
      sessionManager: manager('user-123', 'test'),
    });
    await first.invoke('My hobby is horse racing!');
    const again = new Agent({ model: new ScriptedModel([]), sessionManager: manager('user-123', 'test') });
    await again.initialize();
    expect(again.messages.map(textOf)).toEqual(['My hobby is horse racing!', 'Horse racing is a deep hobby!']);

    expect(await keys('test/')).toEqual([
      'test/session_user-123/agents/agent_default/agent.json',
      'test/session_user-123/agents/agent_default/messages/message_0.json',
      'test/session_user-123/agents/agent_default/messages/message_1.json',
      'test/session_user-123/session.json',
    ]);
  });

  it('restores messages, tool results and agent state into a fresh Agent', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a word up.',
      inputSchema: z.object({ word: z.string() }),
      callback: ({ word }) => `${word}: a fast horse`,
    });
    const model = new ScriptedModel([
      { toolUses: [{ name: 'lookup', input: { word: 'thoroughbred' } }] },
      'A thoroughbred is a fast horse.',
    ]);
    const first = manager('tools');
    const agent = new Agent({ model, tools: [lookup], state: { visits: 1 }, sessionManager: first });
    await agent.invoke('What is a thoroughbred?');
    await first.close(); // gives the session's lease up, as a finished process does
    const syncer = new Agent({
      model: new ScriptedModel(['You asked about thoroughbreds.']),
      tools: [lookup],
      sessionManager: manager('tools'),
    });
    await syncer.initialize();
    expect(syncer.messages).toEqual(agent.messages);
    expect(syncer.messages).toHaveLength(4);
    expect(syncer.messages[2]?.content[0]).toMatchObject({ toolResult: { status: 'success' } });
    expect(syncer.state.get('visits')).toBe(1);

    await syncer.invoke('What did I ask?');
    const restored = new Agent({ model: new ScriptedModel([]), tools: [lookup], sessionManager: manager('tools') });
    await restored.initialize();
    expect(restored.messages.map(textOf).at(-1)).toBe('You asked about thoroughbreds.');
    expect(restored.messages).toHaveLength(6);
  });

  it('syncs agent state after each invocation', async () => {
    const agent = new Agent({ model: new ScriptedModel(['one', 'two']), sessionManager: manager('state') });
    await agent.invoke('first');
    agent.state.set('count', 1);
    await agent.invoke('second');
    const restored = new Agent({ model: new ScriptedModel([]), sessionManager: manager('state') });
    await restored.initialize();
    expect(restored.state.get('count')).toBe(1);
    expect(restored.messages.map(textOf)).toEqual(['first', 'one', 'second', 'two']);
  });

  it('lets only one of two writers of a session append; the other gets SessionConflictError and nothing is lost', async () => {
    const seeder = manager('two-writers');
    const seed = new Agent({ model: new ScriptedModel(['hello']), sessionManager: seeder });
    await seed.invoke('hi');
    await seeder.close();
    const a = new Agent({ model: new ScriptedModel(['answer for a']), sessionManager: manager('two-writers') });
    const b = new Agent({ model: new ScriptedModel(['answer for b']), sessionManager: manager('two-writers') });
    await Promise.all([a.initialize(), b.initialize()]);
    await a.invoke('question from a');
    const lost = b.invoke('question from b');
    await expect(lost).rejects.toSatisfy((error: unknown) => SessionConflictError.is(error));
    // b loaded the session before a wrote: its first write finds the lease taken since its view, so b
    // writes nothing at all (it would otherwise go on from a conversation without a's turn).
    await expect(lost).rejects.toThrow(
      /Session two-writers \(s3:\/\/.*session_two-writers\/\.skein-lease\.json\) was written by another writer .* after this writer loaded it/,
    );

    const restored = new Agent({ model: new ScriptedModel([]), sessionManager: manager('two-writers') });
    await restored.initialize();
    expect(restored.messages.map(textOf)).toEqual(['hi', 'hello', 'question from a', 'answer for a']);
  });

  it('redacts the latest message in what a restore returns', async () => {
    const sm = manager('redact');
    const agent = new Agent({ model: new ScriptedModel(['Your card ends in 4242.']), sessionManager: sm });
    await agent.invoke('My card is 4111-1111-1111-4242');
    await sm.redactLatestMessage(agent, { role: 'assistant', content: [{ text: '[redacted]' }] });
    const restored = new Agent({ model: new ScriptedModel([]), sessionManager: manager('redact') });
    await restored.initialize();
    expect(restored.messages.map(textOf)).toEqual(['My card is 4111-1111-1111-4242', '[redacted]']);
  });

  it('deletes every key of a session', async () => {
    const sm = manager('gone');
    await new Agent({ model: new ScriptedModel(['a']), sessionManager: sm }).invoke('q');
    expect((await keys('agents/session_gone/')).length).toBe(4);
    await sm.repository.deleteSession('gone');
    expect(await keys('agents/session_gone/')).toEqual([]);
  });
});

describe('S3SessionManager with an orchestrator', () => {
  it('stores and reloads orchestrator state, node entries, transitions and member agents', async () => {
    const sm = manager('graph-run', 'orchestrators');
    const session = await sm.openMultiAgent('graph', 'graph');
    expect(await session.load()).toBeUndefined();
    await session.saveState({ status: 'executing', task: 'write a poem' });
    const member = new Agent({ id: 'writer', model: new ScriptedModel(['Roses are red.']) });
    await session.attachAgent(member, 'writer', { restore: true });
    await member.invoke('Write a poem');
    await session.appendTransition({ from: null, to: 'writer', kind: 'start', reason: 'entry point' });
    await session.saveNode('writer', { status: 'completed', result: 'Roses are red.' });
    await session.appendTransition({ from: 'writer', to: null, kind: 'complete', reason: 'no outgoing edges' });
    await session.saveState({ status: 'completed', task: 'write a poem' });

    expect(await keys('orchestrators/session_graph-run/multi_agents/')).toEqual([
      'orchestrators/session_graph-run/multi_agents/multi_agent_graph/multi_agent.json',
      'orchestrators/session_graph-run/multi_agents/multi_agent_graph/nodes/node_writer.json',
      'orchestrators/session_graph-run/multi_agents/multi_agent_graph/transitions/transition_0.json',
      'orchestrators/session_graph-run/multi_agents/multi_agent_graph/transitions/transition_1.json',
    ]);
    await sm.close();
    const reopenedManager = manager('graph-run', 'orchestrators');
    const reopened = await reopenedManager.openMultiAgent('graph', 'graph');
    const snapshot = await reopened.load();
    expect(snapshot?.state).toEqual({ status: 'completed', task: 'write a poem' });
    expect(snapshot?.nodes).toEqual({ writer: { status: 'completed', result: 'Roses are red.' } });
    expect(snapshot?.transitions.map((t) => [t.seq, t.kind])).toEqual([
      [0, 'start'],
      [1, 'complete'],
    ]);
    const again = new Agent({ id: 'writer', model: new ScriptedModel([]) });
    await reopened.attachAgent(again, 'writer', { restore: true });
    expect(again.messages.map(textOf)).toEqual(['Write a poem', 'Roses are red.']);
    // A node entry written again without load() replaces the earlier one.
    await reopenedManager.close();
    const blind = await manager('graph-run', 'orchestrators').openMultiAgent('graph', 'graph');
    await blind.saveNode('writer', { status: 'completed', result: 'Violets are blue.' });
    await blind.appendTransition({ from: null, to: 'writer', kind: 'resume', reason: 'rerun' });
    const last = await (await manager('graph-run', 'orchestrators').openMultiAgent('graph', 'graph')).load();
    expect(last?.nodes['writer']).toEqual({ status: 'completed', result: 'Violets are blue.' });
    expect(last?.transitions).toHaveLength(3);
  });
});

describe('S3SessionManager at scale', () => {
  it('restores a 10,000-message conversation and keeps appending to it', async () => {
    const count = 10_000;
    const repository = new S3SessionRepository({ bucket, prefix: 'scale', clientConfig: server.clientConfig() });
    try {
      const now = new Date().toISOString();
      await repository.createSession({ session_id: 'long', session_type: 'AGENT', created_at: now, updated_at: now });
      await repository.createAgent('long', {
        agent_id: 'default',
        state: { turns: count / 2 },
        conversation_manager_state: {},
        created_at: now,
        updated_at: now,
      });
      const row = (id: number): SessionMessage => ({
        message: { role: id % 2 === 0 ? 'user' : 'assistant', content: [{ text: `message ${id}` }] },
        message_id: id,
        redact_message: null,
        created_at: now,
        updated_at: now,
      });
      // Setup writes distinct keys concurrently (the manager itself appends one at a time).
      const ids = Array.from({ length: count }, (_, i) => i);
      for (let i = 0; i < count; i += 200)
        await Promise.all(
          ids.slice(i, i + 200).map(async (id) => repository.createMessage('long', 'default', row(id))),
        );
    } finally {
      await repository.close();
    }

    const agent = new Agent({
      model: new ScriptedModel(['still here']),
      conversationManager: new NullConversationManager(),
      sessionManager: manager('long', 'scale'),
    });
    await agent.initialize();
    expect(agent.messages).toHaveLength(count);
    expect(agent.messages.every((m, i) => textOf(m) === `message ${i}`)).toBe(true);
    expect(agent.state.get('turns')).toBe(count / 2);
    await agent.invoke('one more');

    const tail = await manager('long', 'scale').repository.listMessages('long', 'default', { offset: count - 1 });
    expect(tail.map((row) => [row.message_id, textOf(row.message)])).toEqual([
      [count - 1, `message ${count - 1}`],
      [count, 'one more'],
      [count + 1, 'still here'],
    ]);
  }, 600_000);
});
