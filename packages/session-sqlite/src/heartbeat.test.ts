import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SessionConflictError } from '@skein/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SqliteSessionRepository } from './index.js';

let dir = '';
let path = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-sqlite-heartbeat-'));
  path = join(dir, 'sessions.db');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const at = '2025-07-23T19:09:41.714508+00:00';
const session = { session_id: 's', session_type: 'AGENT' as const, created_at: at, updated_at: at };
const agent = (id: string) => ({
  agent_id: id,
  state: {},
  conversation_manager_state: {},
  created_at: at,
  updated_at: at,
});
const expiry = (): number =>
  (
    new Database(path).prepare('SELECT expires_at FROM skein_leases WHERE session_id = ?').get('s') as {
      expires_at: number;
    }
  ).expires_at;

it('a writer that holds a session and writes nothing for three leases keeps it: the heartbeat renews it (issue 46)', async () => {
  const holder = new SqliteSessionRepository({ path, leaseTtlMs: 1_000 });
  const other = new SqliteSessionRepository({ path, leaseTtlMs: 1_000 });
  try {
    await holder.createSession(session);
    const first = expiry();
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // a slow model call: no write
    expect(expiry()).toBeGreaterThan(first + 2_000);
    await expect(other.createAgent('s', agent('b'))).rejects.toBeInstanceOf(SessionConflictError);
    await holder.createAgent('s', agent('a'));
    // Given up: no more beats, and the other writer goes on.
    await holder.close();
    await other.createAgent('s', agent('b'));
  } finally {
    await holder.close();
    await other.close();
  }
}, 20_000);
