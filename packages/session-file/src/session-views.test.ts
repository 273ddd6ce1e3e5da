import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionConflictError, type SessionMessage } from '@skein/core';
import { FileSessionRepository } from './index.js';

// The write generation behind "a writer never goes on from a stale view" (issue 30), on the repository itself.
let dir: string;
const open: FileSessionRepository[] = [];
const at = '2025-07-23T19:09:41.714508+00:00';
const row = (id: number): SessionMessage => ({
  message: { role: 'user', content: [{ text: `m${id}` }] },
  message_id: id,
  redact_message: null,
  created_at: at,
  updated_at: at,
});
const repo = (): FileSessionRepository => {
  const r = new FileSessionRepository({ storageDir: dir });
  open.push(r);
  return r;
};
const lockFile = (): string => path.join(dir, 'session_s1/.skein.lock');
const writerFile = (): string => path.join(dir, 'session_s1/.skein.writer');

async function seeded(): Promise<void> {
  const r = repo();
  await r.createSession({ session_id: 's1', session_type: 'AGENT', created_at: at, updated_at: at });
  await r.createAgent('s1', {
    agent_id: 'a1',
    state: {},
    conversation_manager_state: {},
    created_at: at,
    updated_at: at,
  });
  await r.createMessage('s1', 'a1', row(0));
  await r.close();
}

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-views-'));
});
afterEach(async () => {
  for (const r of open.splice(0)) await r.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('FileSessionRepository views', () => {
  it('writes a new generation at every claim, under the lock, and keeps it after the lock is released', async () => {
    await seeded();
    const first = await fs.readFile(writerFile(), 'utf8');
    expect(JSON.parse(first)).toMatchObject({ pid: process.pid, host: os.hostname() });
    const r = repo();
    await r.createMessage('s1', 'a1', row(1));
    const second = await fs.readFile(writerFile(), 'utf8');
    expect(second).not.toBe(first);
    await r.createMessage('s1', 'a1', row(2)); // still the same claim: no new generation
    expect(await fs.readFile(writerFile(), 'utf8')).toBe(second);
    await r.close();
    expect(await fs.readFile(writerFile(), 'utf8')).toBe(second);
    await expect(fs.stat(lockFile())).rejects.toThrow(/ENOENT/);
  });

  it('refuses a stale claim before writing anything, and gives the lock back', async () => {
    await seeded();
    const [a, b] = [repo(), repo()];
    await Promise.all([a.beginView('s1'), b.beginView('s1')]);
    await a.createMessage('s1', 'a1', row(1));
    await a.release('s1');
    const generation = await fs.readFile(writerFile(), 'utf8');
    await expect(b.createMessage('s1', 'a1', row(2))).rejects.toThrow(
      /Session s1 in .* was written by another writer \(process \d+ on .*\) after this writer loaded it/,
    );
    await expect(
      b.updateAgent('s1', {
        agent_id: 'a1',
        state: { x: 1 },
        conversation_manager_state: {},
        created_at: at,
        updated_at: at,
      }),
    ).rejects.toBeInstanceOf(SessionConflictError);
    expect(await b.readMessage('s1', 'a1', 2)).toBeUndefined();
    expect((await b.readAgent('s1', 'a1'))?.state).toEqual({});
    expect(await fs.readFile(writerFile(), 'utf8')).toBe(generation);
    await expect(fs.stat(lockFile())).rejects.toThrow(/ENOENT/); // the failed claim gave the lock back
    await a.createMessage('s1', 'a1', row(2)); // a's own view is current: it goes on
  });

  it('a lock left by a dead writer does not taint a view (it writes nothing more); one of another host does', async () => {
    await seeded();
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
    );
    const base = { host: os.hostname(), process_started_at: at, acquired_at: at, token: 'old' };
    await fs.writeFile(lockFile(), JSON.stringify({ ...base, pid: dead }));
    const after = repo();
    await after.beginView('s1');
    await after.createMessage('s1', 'a1', row(1)); // recovers the dead lock: the view had everything
    await after.close();
    await fs.writeFile(lockFile(), JSON.stringify({ ...base, pid: 1, host: 'another-host' }));
    const tainted = repo();
    await tainted.beginView('s1');
    await fs.unlink(lockFile()); // that writer released it meanwhile
    await expect(tainted.createMessage('s1', 'a1', row(2))).rejects.toThrow(
      /Session s1 in .* was held by another writer \(process 1 on another-host, since .*\) when this writer loaded it.*Reload it.*Nothing was written/,
    );
    expect(await tainted.readMessage('s1', 'a1', 2)).toBeUndefined();
  });

  it('is one writer when shared: a view begun while it holds the session changes nothing; its own delete leaves an empty view', async () => {
    await seeded();
    const r = repo();
    await r.beginView('s1');
    await r.createMessage('s1', 'a1', row(1));
    await r.beginView('s1'); // a second session manager on the same repository
    await r.createMessage('s1', 'a1', row(2));
    await r.deleteSession('s1');
    await r.createSession({ session_id: 's1', session_type: 'AGENT', created_at: at, updated_at: at });
    expect(await r.readSession('s1')).toBeDefined();
  });
});
