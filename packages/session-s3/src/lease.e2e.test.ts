import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, SessionConflictError, messageText } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { S3SessionManager, S3SessionRepository } from './index.js';
import type { RgwServer } from './testing/index.js';
import { rgwServer } from '../../../test/servers/index.js';

// One writer per session on S3, through the lease object, against the real radosgw.

let server: RgwServer;
let bucket = '';
let raw: S3Client;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  server = await rgwServer();
  bucket = await server.createBucket('skein-lease');
  raw = server.client();
}, 600_000);

afterAll(async () => {
  for (const o of open) await o.close().catch(() => undefined);
  raw?.destroy();
  await server?.stop();
}, 120_000);

const manager = (sessionId: string, extra: { takeover?: boolean } = {}): S3SessionManager => {
  const m = new S3SessionManager({ sessionId, bucket, prefix: 'lease', clientConfig: server.clientConfig(), ...extra });
  open.push(m);
  return m;
};
const leaseKey = (sessionId: string): string => `lease/session_${sessionId}/.skein-lease.json`;
const putLease = (sessionId: string, doc: object): Promise<unknown> =>
  raw.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: leaseKey(sessionId),
      Body: JSON.stringify(doc),
      ContentType: 'application/json',
    }),
  );
const readLease = async (sessionId: string): Promise<unknown> =>
  JSON.parse(
    await (
      await raw.send(new GetObjectCommand({ Bucket: bucket, Key: leaseKey(sessionId) }))
    ).Body!.transformToString(),
  );
const answers = (n: number, who: string): string[] => Array.from({ length: n }, (_, i) => `${who} answer ${i}`);

describe('the session lease', () => {
  it('is kept by its heartbeat while the writer holds it and writes nothing for three leases (issue 46)', async () => {
    const clientConfig = server.clientConfig();
    const holder = new S3SessionRepository({ bucket, prefix: 'lease', clientConfig, leaseTtlMs: 1_000 });
    const other = new S3SessionRepository({ bucket, prefix: 'lease', clientConfig, leaseTtlMs: 1_000 });
    open.push(holder, other);
    const at = new Date().toISOString();
    const agent = (id: string) => ({
      agent_id: id,
      state: {},
      conversation_manager_state: {},
      created_at: at,
      updated_at: at,
    });
    await holder.createSession({ session_id: 'beat', session_type: 'AGENT', created_at: at, updated_at: at });
    const first = Date.parse(((await readLease('beat')) as { expires_at: string }).expires_at);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // a slow model call: no write
    expect(Date.parse(((await readLease('beat')) as { expires_at: string }).expires_at)).toBeGreaterThan(first + 1_500);
    await expect(other.createAgent('beat', agent('b'))).rejects.toBeInstanceOf(SessionConflictError);
    await holder.createAgent('beat', agent('a'));
    await holder.close();
    await other.createAgent('beat', agent('b'));
  }, 30_000);

  it('is taken at the first write and given up by close(), which leaves a released lease of the same owner', async () => {
    const m = manager('basic');
    await new Agent({ model: new ScriptedModel(['hi']), sessionManager: m }).invoke('hello');
    const held = (await readLease('basic')) as { owner: string; pid: number; host: string; released_at?: string };
    expect(held).toMatchObject({ pid: process.pid, host: os.hostname() });
    expect(held.released_at).toBeUndefined();
    await m.close();
    const released = (await readLease('basic')) as { owner: string; expires_at: string; released_at?: string };
    expect(released).toMatchObject({ owner: held.owner, expires_at: released.released_at });
    // The next writer takes a released lease at once.
    const next = new Agent({ model: new ScriptedModel(['again']), sessionManager: manager('basic') });
    await next.invoke('hello again');
    expect(next.messages.map(messageText)).toEqual(['hello', 'hi', 'hello again', 'again']);
  });

  it('left by a writer that died on this host is taken over at once', async () => {
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
    );
    await manager('died').repository.createSession({
      session_id: 'died',
      session_type: 'AGENT',
      created_at: 'x',
      updated_at: 'x',
    });
    await open.at(-1)?.close();
    await putLease('died', {
      owner: 'old',
      pid: dead,
      host: os.hostname(),
      acquired_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 600_000).toISOString(),
    });
    const agent = new Agent({ model: new ScriptedModel(['back']), sessionManager: manager('died') });
    await agent.invoke('after the crash');
    expect(agent.messages.map(messageText)).toEqual(['after the crash', 'back']);
  });

  it('held by a live writer elsewhere blocks until it expires; then the next writer takes it over', async () => {
    const held = { owner: 'other', pid: 1, host: 'another-host', acquired_at: new Date().toISOString() };
    await putLease('elsewhere', { ...held, expires_at: new Date(Date.now() + 600_000).toISOString() });
    const blocked = new Agent({ model: new ScriptedModel(['never']), sessionManager: manager('elsewhere') });
    await expect(blocked.invoke('q')).rejects.toThrow(
      /held by another writer \(process 1 on another-host, lease until .*\)/,
    );
    await putLease('elsewhere', { ...held, expires_at: new Date(Date.now() - 1_000).toISOString() });
    const next = new Agent({ model: new ScriptedModel(['ok']), sessionManager: manager('elsewhere') });
    await next.invoke('q');
    expect(next.messages.map(messageText)).toEqual(['q', 'ok']);
  });

  it('can be taken over on purpose (takeover: true) when the caller knows the holder is gone', async () => {
    await putLease('forced', {
      owner: 'other',
      pid: 1,
      host: 'another-host',
      acquired_at: '',
      expires_at: new Date(Date.now() + 600_000).toISOString(),
    });
    const agent = new Agent({
      model: new ScriptedModel(['taken']),
      sessionManager: manager('forced', { takeover: true }),
    });
    await agent.invoke('q');
    expect(agent.messages).toHaveLength(2);
  });
});

describe('two writers racing on one session (seeded trials)', () => {
  const trials = Number(process.env['SKEIN_S3_RACE_TRIALS'] ?? 6);
  it(`exactly one goes on; the other fails before anything it wrote is visible (${trials} trials)`, async () => {
    for (let t = 0; t < trials; t++) {
      const id = `race-${t}`;
      const [ma, mb] = [manager(id), manager(id)];
      const a = new Agent({ model: new ScriptedModel(answers(5, 'A')), sessionManager: ma });
      const b = new Agent({ model: new ScriptedModel(answers(5, 'B')), sessionManager: mb });
      const run = async (agent: Agent, who: string): Promise<string> => {
        try {
          for (let i = 0; i < 5; i++) await agent.invoke(`${who}-${i}`);
          return 'ok';
        } catch (error) {
          if (!SessionConflictError.is(error)) throw error;
          return 'conflict';
        }
      };
      const outcomes = await Promise.all([run(a, 'A'), run(b, 'B')]);
      expect(
        outcomes.filter((o) => o === 'ok'),
        `trial ${t}: ${outcomes.join(', ')}`,
      ).toHaveLength(1);
      const winner = outcomes[0] === 'ok' ? 'A' : 'B';
      const restored = new S3SessionRepository({ bucket, prefix: 'lease', clientConfig: server.clientConfig() });
      open.push(restored);
      const stored = (await restored.listMessages(id, 'default')).map((r) => messageText(r.message));
      expect(stored, `trial ${t}`).toEqual(
        Array.from({ length: 5 }, (_, i) => [`${winner}-${i}`, `${winner} answer ${i}`]).flat(),
      );
    }
  }, 120_000);
});
