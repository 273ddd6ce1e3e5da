import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  ConfigurationError,
  RepositorySessionManager,
  SessionConflictError,
  SessionCorruptError,
  SessionError,
  SessionNotFoundError,
  messageText,
  type SessionMessage,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager, FileSessionRepository } from './index.js';

let dir: string;
const open: { close(): Promise<void> }[] = [];
const at = '2025-07-23T19:09:41.714508+00:00';
const row = (id: number): SessionMessage => ({
  message: { role: 'user', content: [{ text: `m${id}` }] },
  message_id: id,
  redact_message: null,
  created_at: at,
  updated_at: at,
});

function repo(): FileSessionRepository {
  const r = new FileSessionRepository({ storageDir: dir });
  open.push(r);
  return r;
}

async function seeded(count: number): Promise<FileSessionRepository> {
  const r = repo();
  await r.createSession({ session_id: 's1', session_type: 'AGENT', created_at: at, updated_at: at });
  await r.createAgent('s1', {
    agent_id: 'a1',
    state: {},
    conversation_manager_state: {},
    created_at: at,
    updated_at: at,
  });
  for (let i = 0; i < count; i++) await r.createMessage('s1', 'a1', row(i));
  return r;
}

const messageFile = (n: number): string => path.join(dir, 'session_s1/agents/agent_a1/messages', `message_${n}.json`);

async function snapshot(): Promise<Record<string, string>> {
  const files = (await fs.readdir(dir, { recursive: true })).filter((f) => f.endsWith('.json')).sort();
  return Object.fromEntries(
    await Promise.all(files.map(async (f) => [f, await fs.readFile(path.join(dir, f), 'utf8')] as const)),
  );
}

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-session-file-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
  await fs.rm(dir, { recursive: true, force: true });
});

describe('FileSessionRepository: bad input', () => {
  it('refuses ids that could leave the storage dir, touching nothing', async () => {
    const r = await seeded(1);
    const before = await snapshot();
    for (const id of ['../x', '..', 'a/../../b', '/etc', '.lock', 'a\0b', '']) {
      await expect(r.readSession(id)).rejects.toBeInstanceOf(SessionNotFoundError);
      await expect(
        r.createAgent('s1', {
          agent_id: id,
          state: {},
          conversation_manager_state: {},
          created_at: at,
          updated_at: at,
        }),
      ).rejects.toThrow(/Invalid agent id/);
    }
    await expect(r.putNodeEntry('s1', 'g', '../../x', {})).rejects.toThrow(/Invalid node id/);
    await expect(r.createMessage('s1', 'a1', { ...row(0), message_id: -1 })).rejects.toThrow(/Invalid message id/);
    await expect(r.readMessage('s1', 'a1', Number.NaN)).rejects.toThrow(/Invalid message id/);
    expect(() => new FileSessionManager({ sessionId: '../escape', storageDir: dir })).toThrow(/Invalid session id/);
    expect(await snapshot()).toEqual(before);
    expect(await fs.readdir(path.dirname(dir))).not.toContain('x');
  });

  it('names a corrupt JSON file and leaves it as it is', async () => {
    const r = await seeded(3);
    await fs.writeFile(messageFile(1), '{"message": {"role": "user", "content": [');
    const error = await r.listMessages('s1', 'a1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionCorruptError);
    expect((error as SessionCorruptError).location).toBe(messageFile(1));
    expect(String(error)).toContain('message_1.json');
    expect(await fs.readFile(messageFile(1), 'utf8')).toBe('{"message": {"role": "user", "content": [');
    await fs.writeFile(path.join(dir, 'session_s1/agents/agent_a1/agent.json'), '');
    await expect(r.readAgent('s1', 'a1')).rejects.toThrow(/agent\.json is not valid JSON/);
    await fs.writeFile(messageFile(2), JSON.stringify({ ...row(7) }));
    await expect(r.readMessage('s1', 'a1', 2)).rejects.toThrow(/"message_id" is 7, its file name says 2/);
  });

  it('reports a missing message in the middle by its file name, and an agent restore fails with it', async () => {
    const r = await seeded(5);
    await fs.rename(messageFile(2), path.join(dir, 'elsewhere.json'));
    const error = await r.listMessages('s1', 'a1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionCorruptError);
    expect((error as SessionCorruptError).location).toBe(messageFile(2));
    expect((await r.listMessages('s1', 'a1', { offset: 3 })).map((m) => m.message_id)).toEqual([3, 4]);
    await r.close();
    const agent = new Agent({
      id: 'a1',
      model: new ScriptedModel([]),
      sessionManager: new RepositorySessionManager({ sessionId: 's1', repository: repo() }),
    });
    await expect(agent.initialize()).rejects.toThrow(/message_2\.json is missing/);
    expect((await fs.readdir(path.dirname(messageFile(0)))).sort()).toEqual([
      'message_0.json',
      'message_1.json',
      'message_3.json',
      'message_4.json',
    ]);
  });

  it('refuses a storageDir that is a file, at construction and when it becomes one', async () => {
    const file = path.join(dir, 'not-a-dir');
    await fs.writeFile(file, 'x');
    expect(() => new FileSessionRepository({ storageDir: file })).toThrow(ConfigurationError);
    expect(() => new FileSessionManager({ sessionId: 's', storageDir: file })).toThrow(/is a file, not a directory/);
    expect(() => new FileSessionRepository({ storageDir: '' })).toThrow(ConfigurationError);
    const later = path.join(dir, 'later');
    const r = new FileSessionRepository({ storageDir: later });
    await fs.writeFile(later, 'x');
    await expect(r.readSession('s')).rejects.toBeInstanceOf(SessionError);
    const error = await r
      .createSession({ session_id: 's', session_type: 'AGENT', created_at: at, updated_at: at })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect(String(error)).toMatch(/is the storage dir .* a file/);
  });

  it('never overwrites on create, and refuses updates of missing items', async () => {
    const r = await seeded(1);
    await expect(
      r.createMessage('s1', 'a1', { ...row(0), message: { role: 'user', content: [{ text: 'other' }] } }),
    ).rejects.toBeInstanceOf(SessionConflictError);
    expect(messageText((await r.readMessage('s1', 'a1', 0))!.message)).toBe('m0');
    await expect(r.updateMessage('s1', 'a1', row(9))).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(
      r.createAgent('nope', {
        agent_id: 'a',
        state: {},
        conversation_manager_state: {},
        created_at: at,
        updated_at: at,
      }),
    ).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(r.createMessage('s1', 'ghost', row(0))).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(r.listMessages('s1', 'ghost')).rejects.toBeInstanceOf(SessionNotFoundError);
    expect(await r.readAgent('nope', 'a')).toBeUndefined();
    expect(await r.readMessage('s1', 'a1', 5)).toBeUndefined();
  });
});

describe('FileSessionRepository: behaviour', () => {
  it('lists with offset and limit, deletes from an id newest first, and deletes a session', async () => {
    const r = await seeded(12);
    expect((await r.listMessages('s1', 'a1', { offset: 9 })).map((m) => m.message_id)).toEqual([9, 10, 11]);
    expect((await r.listMessages('s1', 'a1', { offset: 2, limit: 3 })).map((m) => m.message_id)).toEqual([2, 3, 4]);
    await r.deleteMessages('s1', 'a1', 10);
    expect(await r.listMessages('s1', 'a1')).toHaveLength(10);
    await r.deleteSession('s1');
    expect(await r.readSession('s1')).toBeUndefined();
    expect((await fs.readdir(dir)).filter((n) => !n.startsWith('.'))).toEqual([]);
    await r.createSession({ session_id: 's1', session_type: 'AGENT', created_at: at, updated_at: at }); // the lock is taken again
  });

  it('round-trips an orchestrator: state, node entries, append-only transitions, member agents', async () => {
    const sm = new FileSessionManager({ sessionId: 'run', storageDir: dir });
    open.push(sm);
    const session = await sm.openMultiAgent('g1', 'graph');
    await session.saveState({ status: 'executing' });
    const member = new Agent({ model: new ScriptedModel(['done']) });
    await session.attachAgent(member, 'writer', { restore: true });
    await member.invoke('write');
    await session.saveNode('writer', { status: 'completed' });
    await Promise.all([
      session.appendTransition({ from: null, to: 'writer', kind: 'start', reason: '' }),
      session.appendTransition({
        from: 'writer',
        to: null,
        kind: 'complete',
        reason: 'done',
        details: { historyBefore: 5, keys: ['a'] },
      }),
    ]);
    const base = path.join(dir, 'session_run/multi_agents/multi_agent_g1');
    expect((await fs.readdir(base, { recursive: true })).filter((f) => f.endsWith('.json')).sort()).toEqual([
      'multi_agent.json',
      'nodes/node_writer.json',
      'transitions/transition_0.json',
      'transitions/transition_1.json',
    ]);
    const transition0 = await fs.readFile(path.join(base, 'transitions/transition_0.json'), 'utf8');
    await sm.close();

    const again = new FileSessionManager({ sessionId: 'run', storageDir: dir });
    open.push(again);
    const snapshot = await (await again.openMultiAgent('g1', 'graph')).load();
    expect(snapshot).toMatchObject({ state: { status: 'executing' }, nodes: { writer: { status: 'completed' } } });
    expect(snapshot?.transitions.map((t) => t.kind)).toEqual(['start', 'complete']);
    expect(snapshot?.transitions.map((t) => t.details)).toEqual([undefined, { historyBefore: 5, keys: ['a'] }]); // structured facts are kept
    expect('details' in (snapshot?.transitions[0] ?? {})).toBe(false);
    await expect(
      again.repository.appendTransitions('run', 'g1', [{ seq: 0, from: 'x', to: 'y', kind: 'edge', reason: '', at }]),
    ).rejects.toBeInstanceOf(SessionConflictError);
    expect(await fs.readFile(path.join(base, 'transitions/transition_0.json'), 'utf8')).toBe(transition0);
    expect((await again.repository.listMessages('run', 'g1.writer')).map((m) => messageText(m.message))).toEqual([
      'write',
      'done',
    ]);
  });
});

describe('FileSessionRepository: one writer per session', () => {
  it('refuses a second repository instance until the first closes', async () => {
    const first = await seeded(1);
    const second = repo();
    expect(await second.listMessages('s1', 'a1')).toHaveLength(1); // reading is always allowed
    const error = await second.createMessage('s1', 'a1', row(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionConflictError);
    expect(String(error)).toContain(`process ${process.pid}`);
    expect(await second.readMessage('s1', 'a1', 1)).toBeUndefined();
    await first.close();
    await second.createMessage('s1', 'a1', row(1));
    await expect(first.createMessage('s1', 'a1', row(2))).rejects.toBeInstanceOf(SessionConflictError);
  });

  it('recovers a lock whose process is dead on this host, or whose pid now belongs to this process', async () => {
    await (await seeded(1)).close();
    const lock = path.join(dir, 'session_s1/.skein.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const base = { host: os.hostname(), process_started_at: at, acquired_at: at, token: 'old' };
    await fs.writeFile(lock, JSON.stringify({ ...base, pid: Number(dead.stdout) }));
    const torn = path.join(path.dirname(messageFile(0)), `.message_1.json.${dead.stdout}.0123456789ab.tmp`);
    await fs.writeFile(torn, '{"message": {"ro');
    const r = repo();
    await r.createMessage('s1', 'a1', row(1));
    expect(JSON.parse(await fs.readFile(lock, 'utf8')).pid).toBe(process.pid);
    await expect(fs.stat(torn)).rejects.toThrow(/ENOENT/); // the dead writer's half-written temp file is gone
    await r.close();
    await fs.writeFile(lock, JSON.stringify({ ...base, pid: process.pid })); // a previous run in a container with the same pid
    await repo().createMessage('s1', 'a1', row(2));
  });

  it('removes the .break file of a recoverer killed after it removed the stale lock, and keeps a live one', async () => {
    await (await seeded(1)).close();
    const breaker = path.join(dir, 'session_s1/.skein.lock.break');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const base = { host: os.hostname(), process_started_at: at, acquired_at: at, token: 'recoverer' };
    await fs.writeFile(breaker, JSON.stringify({ ...base, pid: Number(dead.stdout) }));
    const r = repo();
    await r.createMessage('s1', 'a1', row(1));
    await expect(fs.stat(breaker)).rejects.toThrow(/ENOENT/);
    await r.close();
    await fs.writeFile(breaker, JSON.stringify({ ...base, pid: process.ppid })); // alive: it may be recovering right now
    const again = repo();
    await again.createMessage('s1', 'a1', row(2));
    expect((await fs.stat(breaker)).isFile()).toBe(true);
    await again.close();
  });

  it("after a recoverer killed between removing a stale lock and taking its own, removes the dead writers' temp files everywhere", async () => {
    await (await seeded(1)).close();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const base = { host: os.hostname(), process_started_at: at, acquired_at: at, token: 'recoverer' };
    // The lock is gone (the recoverer removed it) and the recoverer's .break file is left; the writer
    // whose lock it removed had died in the middle of a write, deep in the session.
    await fs.writeFile(
      path.join(dir, 'session_s1/.skein.lock.break'),
      JSON.stringify({ ...base, pid: Number(dead.stdout) }),
    );
    const torn = path.join(path.dirname(messageFile(0)), `.message_1.json.${dead.stdout}.0123456789ab.tmp`);
    await fs.writeFile(torn, '');
    const r = repo();
    await r.createMessage('s1', 'a1', row(1));
    await expect(fs.stat(torn)).rejects.toThrow(/ENOENT/);
    await r.close();
    expect((await fs.readdir(path.join(dir, 'session_s1'))).filter((n) => n.startsWith('.skein.lock'))).toEqual([]);
  });

  it("removes the lock's temp file of a process killed before it took the lock", async () => {
    await (await seeded(1)).close();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const alive = process.ppid;
    const deadTemp = path.join(dir, `session_s1/..skein.lock.${dead.stdout}.0123456789ab.tmp`);
    const liveTemp = path.join(dir, `session_s1/..skein.lock.${alive}.0123456789ab.tmp`);
    await fs.writeFile(deadTemp, '{"pid": 1');
    await fs.writeFile(liveTemp, '{"pid": 2');
    const r = repo();
    await r.createMessage('s1', 'a1', row(1));
    await expect(fs.stat(deadTemp)).rejects.toThrow(/ENOENT/);
    expect((await fs.stat(liveTemp)).isFile()).toBe(true); // a live process may be taking the lock right now
    await r.close();
  });

  it('keeps a lock whose holder is alive, or on another host', async () => {
    await (await seeded(1)).close();
    const lock = path.join(dir, 'session_s1/.skein.lock');
    const base = { process_started_at: at, acquired_at: at, token: 'other' };
    for (const holder of [
      { host: os.hostname(), pid: process.ppid },
      { host: 'some-other-host', pid: 999_999 },
    ]) {
      await fs.writeFile(lock, JSON.stringify({ ...base, ...holder }));
      const error = await repo()
        .createMessage('s1', 'a1', row(1))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionConflictError);
      expect(String(error)).toContain(`process ${holder.pid} on ${holder.host}`);
      expect((error as SessionConflictError).location).toBe(lock);
    }
  });
});
