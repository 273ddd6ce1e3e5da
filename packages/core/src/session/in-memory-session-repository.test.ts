import { describe, expect, it } from 'vitest';
import {
  InMemorySessionRepository,
  SessionConflictError,
  SessionCorruptError,
  SessionNotFoundError,
  decodeBytes,
  encodeBytes,
  holdsBytes,
  parseSessionData,
  serializeSessionData,
  withBytesEncoded,
  type SessionMessage,
} from '../index.js';

const at = '2025-07-23T19:09:41.714508+00:00';
const row = (id: number, text = `m${id}`): SessionMessage => ({
  message: { role: id % 2 === 0 ? 'user' : 'assistant', content: [{ text }] },
  message_id: id,
  redact_message: null,
  created_at: at,
  updated_at: at,
});

async function withAgent(): Promise<InMemorySessionRepository> {
  const repo = new InMemorySessionRepository();
  await repo.createSession({ session_id: 's1', session_type: 'AGENT', created_at: at, updated_at: at });
  await repo.createAgent('s1', {
    agent_id: 'a1',
    state: {},
    conversation_manager_state: {},
    created_at: at,
    updated_at: at,
  });
  return repo;
}

describe('InMemorySessionRepository', () => {
  it('creates, reads and updates, refusing duplicates and updates of missing items', async () => {
    const repo = await withAgent();
    await expect(
      repo.createSession({ session_id: 's1', session_type: 'AGENT', created_at: at, updated_at: at }),
    ).rejects.toBeInstanceOf(SessionConflictError);
    await expect(
      repo.createAgent('s1', {
        agent_id: 'a1',
        state: {},
        conversation_manager_state: {},
        created_at: at,
        updated_at: at,
      }),
    ).rejects.toBeInstanceOf(SessionConflictError);
    await repo.createMessage('s1', 'a1', row(0));
    await expect(repo.createMessage('s1', 'a1', row(0, 'again'))).rejects.toBeInstanceOf(SessionConflictError);
    expect((await repo.readMessage('s1', 'a1', 0))?.message.content).toEqual([{ text: 'm0' }]);
    await expect(repo.updateMessage('s1', 'a1', row(5))).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(
      repo.updateAgent('s1', {
        agent_id: 'nobody',
        state: {},
        conversation_manager_state: {},
        created_at: at,
        updated_at: at,
      }),
    ).rejects.toBeInstanceOf(SessionNotFoundError);
  });

  it('returns undefined for missing items, also when their session is missing', async () => {
    const repo = await withAgent();
    expect(await repo.readSession('nope')).toBeUndefined();
    expect(await repo.readAgent('nope', 'a1')).toBeUndefined();
    expect(await repo.readAgent('s1', 'nope')).toBeUndefined();
    expect(await repo.readMessage('nope', 'a1', 0)).toBeUndefined();
    expect(await repo.readMultiAgent('nope', 'g')).toBeUndefined();
  });

  it('copies values in and out', async () => {
    const repo = await withAgent();
    const message = row(0);
    await repo.createMessage('s1', 'a1', message);
    (message.message.content[0] as { text: string }).text = 'changed';
    const read = await repo.readMessage('s1', 'a1', 0);
    expect(read?.message.content).toEqual([{ text: 'm0' }]);
    (read?.message.content[0] as { text: string }).text = 'changed';
    expect((await repo.readMessage('s1', 'a1', 0))?.message.content).toEqual([{ text: 'm0' }]);
  });

  it('lists messages in id order with offset and limit, and reports a gap as corruption', async () => {
    const repo = await withAgent();
    for (const id of [3, 0, 2, 1, 4]) await repo.createMessage('s1', 'a1', row(id));
    expect((await repo.listMessages('s1', 'a1')).map((m) => m.message_id)).toEqual([0, 1, 2, 3, 4]);
    expect((await repo.listMessages('s1', 'a1', { offset: 2, limit: 2 })).map((m) => m.message_id)).toEqual([2, 3]);
    expect(await repo.listMessages('s1', 'a1', { offset: 9 })).toEqual([]);
    await repo.deleteMessages('s1', 'a1', 3);
    await repo.createMessage('s1', 'a1', row(4));
    const error = await repo.listMessages('s1', 'a1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionCorruptError);
    expect(String(error)).toContain('Message 3 of agent a1');
  });

  it('refuses ids that could leave the storage, and bad message ids', async () => {
    const repo = await withAgent();
    for (const id of ['../x', '.hidden', 'a/b', '', 'a\\b', 'x'.repeat(201), 'a..b']) {
      await expect(repo.readSession(id)).rejects.toBeInstanceOf(SessionNotFoundError);
    }
    await expect(repo.createMessage('s1', 'a1', { ...row(0), message_id: -1 })).rejects.toThrow(/integers >= 0/);
    await expect(repo.createMessage('s1', 'a1', { ...row(0), message_id: 1.5 })).rejects.toThrow(/integers >= 0/);
  });

  it('keeps transitions append-only and in order', async () => {
    const repo = await withAgent();
    await repo.createMultiAgent('s1', { id: 'g', type: 'graph', state: {}, created_at: at, updated_at: at });
    await repo.appendTransitions('s1', 'g', [{ seq: 0, from: null, to: 'a', kind: 'start', reason: '', at }]);
    await expect(
      repo.appendTransitions('s1', 'g', [{ seq: 0, from: 'a', to: 'b', kind: 'edge', reason: '', at }]),
    ).rejects.toBeInstanceOf(SessionConflictError);
    expect((await repo.readTransitions('s1', 'g')).map((t) => t.to)).toEqual(['a']);
  });
});

describe('session codec', () => {
  it('encodes bytes the way Strands does and decodes them back', () => {
    const value = { image: { format: 'png', source: { bytes: new Uint8Array([137, 80, 78, 71]) } } };
    expect(encodeBytes(value)).toEqual({
      image: { format: 'png', source: { bytes: { __bytes_encoded__: true, data: 'iVBORw==' } } },
    });
    expect(decodeBytes(encodeBytes(value))).toEqual(value);
    expect(parseSessionData(serializeSessionData(value), 'x.json')).toEqual(value);
    expect(serializeSessionData({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
  });

  it('finds bytes at any depth, and stores a value without bytes as it is', () => {
    const deep = { a: [{ b: { c: [1, { d: new Uint8Array([1, 2]) }] } }] };
    expect(holdsBytes(deep)).toBe(true);
    expect(holdsBytes({ a: [{ b: 'x' }], n: null })).toBe(false);
    expect(parseSessionData(serializeSessionData(deep), 'x.json')).toEqual(deep);
    expect(serializeSessionData(deep)).toContain('"__bytes_encoded__": true');
    // A message that mentions the marker in its text is read back as it was written.
    const text = { content: [{ text: 'a "__bytes_encoded__" key' }] };
    expect(parseSessionData(serializeSessionData(text), 'x.json')).toEqual(text);
  });

  it('copies a value to encode its bytes only when it holds bytes', () => {
    const plain = { a: [{ b: 'x' }] };
    expect(withBytesEncoded(plain)).toBe(plain);
    const bytes = new Uint8Array([1, 2]);
    const value = { a: [{ b: bytes }] };
    expect(withBytesEncoded(value)).toEqual({ a: [{ b: { __bytes_encoded__: true, data: 'AQI=' } }] });
    expect(value.a[0]?.b).toBe(bytes);
  });

  it('refuses a value nested too deep to handle as corrupt, naming where', () => {
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    expect(() => parseSessionData(deep, 'agent.json')).toThrow(SessionCorruptError);
    expect(() => parseSessionData(deep, 'agent.json')).toThrow(/agent\.json/);
  });

  it('names the location of corrupt JSON', () => {
    const error = (() => {
      try {
        return parseSessionData('{"message": ', '/tmp/s/message_3.json');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SessionCorruptError);
    expect((error as SessionCorruptError).location).toBe('/tmp/s/message_3.json');
    expect(String(error)).toContain('/tmp/s/message_3.json');
  });
});
