import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, SessionCorruptError, type SessionMessage } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { FileSessionManager, FileSessionRepository } from './index.js';

// Found by the bad-input fuzz (test/reliability): a directory of the store replaced by a symbolic
// link out of the storage root led every later write (messages, agent.json, the lock) out of it.

let parent: string;
let root: string;
let outside: string;
const at = '2025-07-23T19:09:41.714508+00:00';
const row = (id: number): SessionMessage => ({
  message: { role: 'user', content: [{ text: `m${id}` }] },
  message_id: id,
  redact_message: null,
  created_at: at,
  updated_at: at,
});

beforeEach(async () => {
  parent = await fs.mkdtemp(path.join(os.tmpdir(), 'skein-root-guard-'));
  root = path.join(parent, 'store');
  outside = path.join(parent, 'outside');
  await fs.mkdir(outside);
  const repo = new FileSessionRepository({ storageDir: root });
  await repo.createSession({ session_id: 's1', session_type: 'AGENT', created_at: at, updated_at: at });
  await repo.createAgent('s1', {
    agent_id: 'a1',
    state: {},
    conversation_manager_state: {},
    created_at: at,
    updated_at: at,
  });
  for (let i = 0; i < 2; i++) await repo.createMessage('s1', 'a1', row(i));
  await repo.close();
});
afterEach(() => fs.rm(parent, { recursive: true, force: true }));

/** Moves `rel` (under the root) to `outside/` and leaves a symlink to it. */
async function linkOut(rel: string): Promise<string> {
  const target = path.join(outside, path.basename(rel));
  await fs.rename(path.join(root, rel), target);
  await fs.symlink(target, path.join(root, rel));
  return target;
}

const listing = async (dir: string): Promise<string[]> => (await fs.readdir(dir, { recursive: true })).sort();

describe('FileSessionRepository: symbolic links out of the storage root', () => {
  it.each(['session_s1', 'session_s1/agents', 'session_s1/agents/agent_a1', 'session_s1/agents/agent_a1/messages'])(
    'refuses to write through %s when it links outside, naming it, and writes nothing there',
    async (rel) => {
      const target = await linkOut(rel);
      const before = await listing(target);
      const repo = new FileSessionRepository({ storageDir: root });
      const error = await repo.createMessage('s1', 'a1', row(2)).catch((e: unknown) => e);
      expect(SessionCorruptError.is(error)).toBe(true);
      expect((error as Error).message).toContain(path.join(root, rel));
      expect((error as Error).message).toMatch(/symbolic link/);
      await expect(repo.deleteMessages('s1', 'a1', 0)).rejects.toSatisfy((e) => SessionCorruptError.is(e));
      await repo.close();
      expect(await listing(target)).toEqual(before);
    },
  );

  it('an agent restored from such a session fails its first write with that error, leaving outside as it was', async () => {
    const target = await linkOut('session_s1/agents/agent_a1/messages');
    const before = await listing(target);
    const sessionManager = new FileSessionManager({ sessionId: 's1', storageDir: root });
    const agent = new Agent({ id: 'a1', model: new ScriptedModel(['ok']), sessionManager });
    await expect(agent.invoke('hi')).rejects.toSatisfy((e) => SessionCorruptError.is(e));
    await sessionManager.close();
    expect(await listing(target)).toEqual(before);
  });

  it('still writes when the storage dir itself is reached through a link, and reads a linked file', async () => {
    const linkedRoot = path.join(parent, 'linked-store');
    await fs.symlink(root, linkedRoot);
    await linkOut('session_s1/agents/agent_a1/messages/message_1.json');
    const repo = new FileSessionRepository({ storageDir: linkedRoot });
    expect((await repo.listMessages('s1', 'a1')).map((m) => m.message_id)).toEqual([0, 1]);
    await repo.createMessage('s1', 'a1', row(2));
    await repo.close();
    expect(await listing(path.join(root, 'session_s1/agents/agent_a1/messages'))).toContain('message_2.json');
  });
});
