import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  ConfigurationError,
  SessionConflictError,
  SessionCorruptError,
  SessionError,
  SessionNotFoundError,
  type Message,
  type SessionMessage,
} from '@skein/core';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3SessionRepository } from './index.js';
import type { RgwServer } from './testing/index.js';
import { rgwServer } from '../../../test/servers/index.js';

// One real S3 server (Ceph radosgw, see README "Tests") for the whole file.
let server: RgwServer;
let bucket: string;
let raw: S3Client;
const repos: S3SessionRepository[] = [];

beforeAll(async () => {
  server = await rgwServer();
  bucket = await server.createBucket('skein-repo');
  raw = server.client();
}, 600_000);

afterAll(async () => {
  for (const repo of repos) repo.destroy();
  raw?.destroy();
  await server?.stop();
}, 120_000);

function repo(
  options: { prefix?: string; bucket?: string; other?: boolean; takeover?: boolean } = {},
): S3SessionRepository {
  const r = new S3SessionRepository({
    bucket: options.bucket ?? bucket,
    prefix: options.prefix ?? 'repo',
    clientConfig: server.clientConfig(options.other ? server.otherCredentials : undefined),
    ...(options.takeover ? { takeover: true } : {}),
  });
  repos.push(r);
  return r;
}

const now = '2025-07-23T19:09:41.714508+00:00';
const text = (role: 'user' | 'assistant', t: string): Message => ({ role, content: [{ text: t }] });
const row = (id: number, message: Message = text(id % 2 ? 'assistant' : 'user', `m${id}`)): SessionMessage => ({
  message,
  message_id: id,
  redact_message: null,
  created_at: now,
  updated_at: now,
});

async function withSession(r: S3SessionRepository, sessionId: string, agentId = 'default'): Promise<void> {
  await r.createSession({ session_id: sessionId, session_type: 'AGENT', created_at: now, updated_at: now });
  await r.createAgent(sessionId, {
    agent_id: agentId,
    state: {},
    conversation_manager_state: {},
    created_at: now,
    updated_at: now,
  });
}

/** Keys under `prefix`, without the writers' lease objects (they have their own tests). */
async function keysUnder(prefix: string): Promise<string[]> {
  const out = await raw.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (out.Contents ?? [])
    .map((c) => c.Key ?? '')
    .filter((k) => !k.endsWith('/.skein-lease.json'))
    .sort();
}

async function readRaw(key: string): Promise<string> {
  const out = await raw.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return (await out.Body?.transformToString()) ?? '';
}

describe('S3SessionRepository round trip', () => {
  it('stores session, agent and messages in the Strands key layout and reads them back', async () => {
    const r = repo({ prefix: 'test/' });
    await withSession(r, 'user-123');
    await r.updateAgent('user-123', {
      agent_id: 'default',
      state: { hobby: 'horse racing' },
      conversation_manager_state: { removed_message_count: 0 },
      created_at: now,
      updated_at: now,
    });
    const bytes = new Uint8Array([0, 1, 2, 250]);
    await r.createMessage(
      'user-123',
      'default',
      row(0, { role: 'user', content: [{ text: '私の趣味は競馬なんですよ!' }] }),
    );
    await r.createMessage(
      'user-123',
      'default',
      row(1, { role: 'assistant', content: [{ image: { format: 'png', source: { bytes } } }] } as Message),
    );

    expect(await keysUnder('test/')).toEqual([
      'test/session_user-123/agents/agent_default/agent.json',
      'test/session_user-123/agents/agent_default/messages/message_0.json',
      'test/session_user-123/agents/agent_default/messages/message_1.json',
      'test/session_user-123/session.json',
    ]);
    const stored = JSON.parse(
      await readRaw('test/session_user-123/agents/agent_default/messages/message_0.json'),
    ) as Record<string, unknown>;
    expect(stored).toEqual({
      message: { role: 'user', content: [{ text: '私の趣味は競馬なんですよ!' }] },
      message_id: 0,
      redact_message: null,
      created_at: now,
      updated_at: now,
    });
    expect(await readRaw('test/session_user-123/agents/agent_default/messages/message_1.json')).toContain(
      '"__bytes_encoded__": true',
    );

    await r.close(); // gives the lease up: the next writer starts at once
    const fresh = repo({ prefix: 'test' });
    expect(await fresh.readSession('user-123')).toMatchObject({ session_id: 'user-123', session_type: 'AGENT' });
    expect(await fresh.readAgent('user-123', 'default')).toMatchObject({ state: { hobby: 'horse racing' } });
    const messages = await fresh.listMessages('user-123', 'default');
    expect(messages.map((m) => m.message_id)).toEqual([0, 1]);
    expect(messages[1]?.message.content[0]).toEqual({ image: { format: 'png', source: { bytes } } });
    expect(await fresh.readMessage('user-123', 'default', 1)).toEqual(messages[1]);
    expect(await fresh.readMessage('user-123', 'default', 7)).toBeUndefined();
    expect(await fresh.readSession('nobody')).toBeUndefined();
    expect(await fresh.readAgent('user-123', 'nobody')).toBeUndefined();

    await fresh.updateMessage('user-123', 'default', { ...row(0), redact_message: text('user', '[redacted]') });
    expect((await r.readMessage('user-123', 'default', 0))?.redact_message).toEqual(text('user', '[redacted]'));
    expect(await fresh.listMessages('user-123', 'default', { offset: 1, limit: 5 })).toHaveLength(1);
    await fresh.deleteMessages('user-123', 'default', 1);
    expect((await fresh.listMessages('user-123', 'default')).map((m) => m.message_id)).toEqual([0]);
  });

  it('stores an orchestrator: multi_agent.json, node entries and transitions', async () => {
    const r = repo();
    await r.createSession({ session_id: 'orch', session_type: 'MULTI_AGENT', created_at: now, updated_at: now });
    await r.createMultiAgent('orch', {
      id: 'graph-1',
      type: 'graph',
      state: { status: 'executing' },
      created_at: now,
      updated_at: now,
    });
    await r.putNodeEntry('orch', 'graph-1', 'research', { status: 'completed', result: 'facts' });
    await r.putNodeEntry('orch', 'graph-1', 'research', { status: 'completed', result: 'more facts' });
    await r.putNodeEntry('orch', 'graph-1', 'write', { status: 'executing' });
    const t = (seq: number, from: string | null, to: string | null) => ({
      seq,
      from,
      to,
      kind: 'edge',
      reason: 'because',
      at: now,
    });
    await r.appendTransitions('orch', 'graph-1', [t(0, null, 'research'), t(1, 'research', 'write')]);
    await r.appendTransitions('orch', 'graph-1', [
      { ...t(2, 'write', null), details: { historyBefore: 5, historyAfter: 2 } },
    ]);
    await expect(r.appendTransitions('orch', 'graph-1', [t(5, 'write', null)])).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    await r.updateMultiAgent('orch', {
      id: 'graph-1',
      type: 'graph',
      state: { status: 'completed' },
      created_at: now,
      updated_at: now,
    });

    expect(await keysUnder('repo/session_orch/multi_agents/')).toEqual([
      'repo/session_orch/multi_agents/multi_agent_graph-1/multi_agent.json',
      'repo/session_orch/multi_agents/multi_agent_graph-1/nodes/node_research.json',
      'repo/session_orch/multi_agents/multi_agent_graph-1/nodes/node_write.json',
      'repo/session_orch/multi_agents/multi_agent_graph-1/transitions/transition_0.json',
      'repo/session_orch/multi_agents/multi_agent_graph-1/transitions/transition_1.json',
      'repo/session_orch/multi_agents/multi_agent_graph-1/transitions/transition_2.json',
    ]);
    await r.close();
    const fresh = repo();
    expect(await fresh.readMultiAgent('orch', 'graph-1')).toMatchObject({
      type: 'graph',
      state: { status: 'completed' },
    });
    expect(await fresh.readNodeEntries('orch', 'graph-1')).toEqual({
      research: { status: 'completed', result: 'more facts' },
      write: { status: 'executing' },
    });
    expect((await fresh.readTransitions('orch', 'graph-1')).map((x) => [x.seq, x.to])).toEqual([
      [0, 'research'],
      [1, 'write'],
      [2, null],
    ]);
    expect((await fresh.readTransitions('orch', 'graph-1')).map((x) => x.details)).toEqual([
      undefined,
      undefined,
      { historyBefore: 5, historyAfter: 2 },
    ]);
    await fresh.putNodeEntry('orch', 'graph-1', 'write', { status: 'completed' });
    await fresh.appendTransitions('orch', 'graph-1', [t(3, null, null)]);

    await fresh.deleteMultiAgent('orch', 'graph-1');
    expect(await keysUnder('repo/session_orch/multi_agents/')).toEqual([]);
    expect(await fresh.readMultiAgent('orch', 'graph-1')).toBeUndefined();
  });

  it('lists more than 1,000 messages across pages and deletes a session of more than 1,000 keys', async () => {
    const r = repo({ prefix: 'paging' });
    await withSession(r, 'big');
    const ids = Array.from({ length: 1_205 }, (_, i) => i);
    // Written concurrently by the test (distinct keys) to keep it quick; restore order comes from the ids.
    for (let i = 0; i < ids.length; i += 64)
      await Promise.all(ids.slice(i, i + 64).map((id) => r.createMessage('big', 'default', row(id))));
    const all = await repo({ prefix: 'paging' }).listMessages('big', 'default');
    expect(all.map((m) => m.message_id)).toEqual(ids);
    expect(all[1_204]?.message).toEqual(text('user', 'm1204'));
    const page = await r.listMessages('big', 'default', { offset: 1_000, limit: 100 });
    expect(page.map((m) => m.message_id)).toEqual(ids.slice(1_000, 1_100));

    await r.deleteSession('big');
    expect(await keysUnder('paging/session_big/')).toEqual([]);
    expect(await r.readSession('big')).toBeUndefined();
  }, 180_000);
});

describe('S3SessionRepository with two writers', () => {
  it('refuses every write of a second writer while the first holds the lease, before it writes anything', async () => {
    const [a, b] = [repo(), repo()];
    await withSession(a, 'race');
    await a.createMessage('race', 'default', row(0, text('user', 'from a')));
    for (const write of [
      () => b.createSession({ session_id: 'race', session_type: 'AGENT', created_at: now, updated_at: now }),
      () => b.createMessage('race', 'default', row(1, text('user', 'from b'))),
      () =>
        b.updateAgent('race', {
          agent_id: 'default',
          state: { by: 'b' },
          conversation_manager_state: {},
          created_at: now,
          updated_at: now,
        }),
    ]) {
      const lost = write();
      await expect(lost).rejects.toBeInstanceOf(SessionConflictError);
      await expect(lost).rejects.toThrow(
        /session_race\/\.skein-lease\.json is held by another writer \(process \d+ on .*lease until/,
      );
    }
    expect((await a.listMessages('race', 'default')).map((m) => m.message)).toEqual([text('user', 'from a')]);
    await a.close();
    await b.createMessage('race', 'default', row(1, text('assistant', 'from b'))); // a gave the lease up: b may write
    expect((await repo().listMessages('race', 'default')).map((m) => m.message_id)).toEqual([0, 1]);
  });

  it('takes over (on purpose) a held lease; the old holder is then refused, and stale versions stay refused', async () => {
    const a = repo();
    await withSession(a, 'stale');
    const base = { agent_id: 'default', conversation_manager_state: {}, created_at: now, updated_at: now };
    const b = repo({ takeover: true });
    await b.readAgent('stale', 'default');
    await a.updateAgent('stale', { ...base, state: { writer: 'a', round: 2 } });
    // b takes the lease over, but its version of agent.json is stale: the ETag check refuses it.
    const loser = b.updateAgent('stale', { ...base, state: { writer: 'b' } });
    await expect(loser).rejects.toThrow(/s3:\/\/.*agent_default\/agent\.json.*changed by another writer/);
    expect((await repo().readAgent('stale', 'default'))?.state).toEqual({ writer: 'a', round: 2 });
    // After reading, b writes; a's version is now stale and its write is refused.
    await b.readAgent('stale', 'default');
    await b.updateAgent('stale', { ...base, state: { writer: 'b' } });
    await expect(a.updateAgent('stale', { ...base, state: { writer: 'a', round: 3 } })).rejects.toThrow(
      /changed by another writer/,
    );
    expect((await repo().readAgent('stale', 'default'))?.state).toEqual({ writer: 'b' });
  });

  it('refuses a node entry or transition written by another orchestrator process', async () => {
    const [a, b] = [repo(), repo()];
    await a.createSession({ session_id: 'orch2', session_type: 'MULTI_AGENT', created_at: now, updated_at: now });
    await a.createMultiAgent('orch2', { id: 'swarm', type: 'swarm', state: {}, created_at: now, updated_at: now });
    await b.readNodeEntries('orch2', 'swarm');
    await b.readTransitions('orch2', 'swarm');
    await a.putNodeEntry('orch2', 'swarm', 'n1', { by: 'a' });
    await a.appendTransitions('orch2', 'swarm', [{ seq: 0, from: null, to: 'n1', kind: 'start', reason: '', at: now }]);
    await expect(b.putNodeEntry('orch2', 'swarm', 'n1', { by: 'b' })).rejects.toBeInstanceOf(SessionConflictError);
    await expect(
      b.appendTransitions('orch2', 'swarm', [{ seq: 0, from: null, to: 'n2', kind: 'start', reason: '', at: now }]),
    ).rejects.toBeInstanceOf(SessionConflictError);
    expect(await a.readNodeEntries('orch2', 'swarm')).toEqual({ n1: { by: 'a' } });
    expect((await a.readTransitions('orch2', 'swarm'))[0]?.to).toBe('n1');
  });

  it('counts its own write as done when S3 applied it but the answer was lost and the SDK retried', async () => {
    // A proxy in front of the real server that lets the first PUT of each message through to S3 but
    // cuts the connection instead of answering, so the SDK sends the same conditional PUT again.
    const upstream = new URL(server.endpoint);
    const cut = new Set<string>();
    const proxy = http.createServer((req, res) => {
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const url = req.url ?? '';
          if (req.method === 'PUT' && url.includes('/messages/') && !cut.has(url)) {
            cut.add(url);
            answer.resume();
            answer.on('end', () => res.socket?.destroy());
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as AddressInfo).port;
    const flaky = new S3SessionRepository({
      bucket,
      prefix: 'retry',
      clientConfig: { ...server.clientConfig(), endpoint: `http://127.0.0.1:${port}` },
    });
    try {
      await withSession(flaky, 'r1');
      await flaky.createMessage('r1', 'default', row(0));
      await flaky.updateMessage('r1', 'default', { ...row(0), redact_message: text('user', 'x') });
      expect(cut.size).toBe(1);
      await flaky.createMessage('r1', 'default', row(1));
      expect(cut.size).toBe(2);
      expect((await flaky.listMessages('r1', 'default')).map((m) => m.message_id)).toEqual([0, 1]);
      // Another writer's message with the same id is still a conflict.
      await expect(flaky.createMessage('r1', 'default', row(1, text('assistant', 'other')))).rejects.toBeInstanceOf(
        SessionConflictError,
      );
    } finally {
      flaky.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('reports an update of something that does not exist as not found', async () => {
    const r = repo();
    await withSession(r, 'ghost');
    await expect(r.updateMessage('ghost', 'default', row(3))).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(
      r.updateAgent('ghost', {
        agent_id: 'nope',
        state: {},
        conversation_manager_state: {},
        created_at: now,
        updated_at: now,
      }),
    ).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(
      r.createAgent('no-session', {
        agent_id: 'a',
        state: {},
        conversation_manager_state: {},
        created_at: now,
        updated_at: now,
      }),
    ).rejects.toThrow(/Session no-session does not exist/);
  });
});

describe('S3SessionRepository bad input', () => {
  it('names a bucket that does not exist', async () => {
    const r = repo({ bucket: 'skein-no-such-bucket' });
    const read = r.readSession('s1');
    await expect(read).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(read).rejects.toThrow('S3 bucket "skein-no-such-bucket" does not exist');
    await expect(
      r.createSession({ session_id: 's1', session_type: 'AGENT', created_at: now, updated_at: now }),
    ).rejects.toThrow(/skein-no-such-bucket" does not exist/);
    await expect(r.listMessages('s1', 'a')).rejects.toThrow(/skein-no-such-bucket" does not exist/);
  });

  it('names the missing permission when S3 denies access', async () => {
    const owner = repo({ prefix: 'denied' });
    await withSession(owner, 'mine');
    const other = repo({ prefix: 'denied', other: true });
    const read = other.readSession('mine');
    await expect(read).rejects.toBeInstanceOf(SessionError);
    await expect(read).rejects.toThrow(
      /S3 denied reading s3:\/\/skein-repo-[a-f0-9]+\/denied\/session_mine\/session\.json \(AccessDenied\): the credentials need s3:GetObject/,
    );
    await expect(
      other.createSession({ session_id: 'theirs', session_type: 'AGENT', created_at: now, updated_at: now }),
    ).rejects.toThrow(/need s3:PutObject/);
    await expect(other.listMessages('mine', 'default')).rejects.toThrow(/need s3:ListBucket/);
    await expect(other.deleteSession('mine')).rejects.toThrow(/need s3:PutObject/);
    expect(await owner.readSession('mine')).toBeDefined();
  });

  it('rejects ids that could leave the session prefix, before any request', async () => {
    const r = repo();
    for (const id of ['../x', 'a/b', '', '.hidden', 'a..b', 'x'.repeat(201)]) {
      await expect(r.readSession(id)).rejects.toBeInstanceOf(SessionNotFoundError);
      await expect(r.readAgent('ok', id)).rejects.toThrow(/Invalid agent id/);
      await expect(r.putNodeEntry('ok', 'ok', id, {})).rejects.toThrow(/Invalid node id/);
    }
    await expect(r.readMessage('ok', 'ok', -1)).rejects.toThrow(/Invalid message id/);
    await expect(r.listMessages('ok', 'ok', { offset: 1.5 })).rejects.toThrow(/Invalid offset/);
    expect(await keysUnder('repo/session_ok')).toEqual([]);
  });

  it('reports a corrupt object by its key and leaves it in place', async () => {
    const r = repo({ prefix: 'corrupt' });
    await withSession(r, 'c1');
    await r.createMessage('c1', 'default', row(0));
    const key = 'corrupt/session_c1/agents/agent_default/messages/message_1.json';
    await raw.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: '{"message": {"role": "user", "conte' }));
    const list = r.listMessages('c1', 'default');
    await expect(list).rejects.toBeInstanceOf(SessionCorruptError);
    await expect(list).rejects.toThrow(`s3://${bucket}/${key} is not valid JSON`);
    await raw.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'corrupt/session_c1/agents/agent_default/agent.json',
        Body: '[1, 2]',
      }),
    );
    await expect(r.readAgent('c1', 'default')).rejects.toThrow(/agent\.json is not a JSON object/);
    await raw.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(row(7)) }));
    await expect(r.listMessages('c1', 'default')).rejects.toThrow(
      /message_1\.json has message_id 7 but its key says 1/,
    );
    expect(await readRaw('corrupt/session_c1/agents/agent_default/messages/message_0.json')).toContain(
      '"message_id": 0',
    );
  });

  it('reports a message missing in the middle by the key that should be there', async () => {
    const r = repo({ prefix: 'gap' });
    await withSession(r, 'g1');
    for (const id of [0, 1, 2, 4, 5]) await r.createMessage('g1', 'default', row(id));
    const list = r.listMessages('g1', 'default');
    await expect(list).rejects.toBeInstanceOf(SessionCorruptError);
    await expect(list).rejects.toThrow(
      `s3://${bucket}/gap/session_g1/agents/agent_default/messages/message_3.json does not exist (the next one stored is 4)`,
    );
    expect((await r.listMessages('g1', 'default', { offset: 4 })).map((m) => m.message_id)).toEqual([4, 5]);
    expect((await r.listMessages('g1', 'default', { limit: 3 })).map((m) => m.message_id)).toEqual([0, 1, 2]);
  });

  it('validates its options', () => {
    const client = server.client();
    try {
      expect(() => new S3SessionRepository({ bucket: '' })).toThrow(ConfigurationError);
      expect(() => new S3SessionRepository({ bucket: 'a/b' })).toThrow(/bucket must be an S3 bucket name/);
      expect(() => new S3SessionRepository({ bucket: 'ok-bucket', prefix: '../up' })).toThrow(/prefix/);
      expect(() => new S3SessionRepository({ bucket: 'ok-bucket', client, region: 'us-east-1' })).toThrow(
        /either client or region/,
      );
      expect(() => new S3SessionRepository({ bucket: 'ok-bucket', client: {} as S3Client })).toThrow(
        /client must be an S3Client/,
      );
      expect(() => new S3SessionRepository({ bucket: 'ok-bucket', readConcurrency: 0 })).toThrow(/readConcurrency/);
      expect(new S3SessionRepository({ bucket: 'ok-bucket', client }).client).toBe(client);
    } finally {
      client.destroy();
    }
  });
});
