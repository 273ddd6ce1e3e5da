import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SessionConflictError, SessionError } from '@skein/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentRecord as agent, at, row as message, withAgent } from '../../../test/contract/fixtures.js';
import { SCHEMA_VERSION, SqliteSessionRepository } from './index.js';

let dir: string;
let path: string;
const opened: SqliteSessionRepository[] = [];
const open = (options: Partial<ConstructorParameters<typeof SqliteSessionRepository>[0]> = {}) => {
  const r = new SqliteSessionRepository({ path, ...options });
  opened.push(r);
  return r;
};
const session = (id: string) => ({ session_id: id, session_type: 'AGENT' as const, created_at: at, updated_at: at });
const sha = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-sqlite-'));
  path = join(dir, 'desk.db');
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('SqliteSessionRepository: the database', () => {
  it('one file in WAL mode, schema versioned, records with Strands field names', async () => {
    const r = open();
    await withAgent(r, 's1');
    await r.createMessage('s1', 'default', message(0));
    await withAgent(r, 's2');
    expect(await r.listSessions()).toEqual(['s1', 's2']);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare("SELECT value FROM skein_meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    const doc = db.prepare('SELECT doc FROM skein_messages').get() as { doc: string };
    expect(Object.keys(JSON.parse(doc.doc))).toEqual([
      'message',
      'message_id',
      'redact_message',
      'created_at',
      'updated_at',
    ]);
    const agentDoc = db.prepare('SELECT doc FROM skein_agents').get() as { doc: string };
    expect(JSON.parse(agentDoc.doc)).toMatchObject({ agent_id: 'default', state: {}, conversation_manager_state: {} });
    db.close();
  });

  it('a file that is not an SQLite database: a SessionError naming it, the file unchanged', async () => {
    await writeFile(path, 'these are my notes, not a database\n'.repeat(200));
    const before = await sha(path);
    const error = await open()
      .readSession('s')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as Error).message).toContain(`sqlite:${path}`);
    expect((error as Error).message).toMatch(/not an SQLite database/);
    await expect(open().createSession(session('s'))).rejects.toBeInstanceOf(SessionError);
    expect(await sha(path)).toBe(before);
  });

  it("an SQLite database that is not skein's: refused before anything is written", async () => {
    const other = new Database(path);
    other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5)');
    other.close();
    const before = await sha(path);
    const error = await open()
      .createSession(session('s'))
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/not skein's \(it has the tables invoices/);
    expect(await sha(path)).toBe(before);
  });

  it('a newer schema version: refused with what to do, nothing written', async () => {
    await withAgent(open(), 's');
    await Promise.all(opened.splice(0).map((r) => r.close()));
    const db = new Database(path);
    db.prepare("UPDATE skein_meta SET value = '99' WHERE key = 'schema_version'").run();
    db.close();
    const before = await sha(path);
    const error = await open()
      .createMessage('s', 'default', message(0))
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /newer @skein\/session-sqlite \(schema version 99; this one reads up to 1\); upgrade/,
    );
    expect(await sha(path)).toBe(before);
  });

  it('a database locked by another connection: a SessionError naming the store after busyTimeoutMs, nothing written', async () => {
    const r = open({ busyTimeoutMs: 100 });
    await withAgent(r, 's');
    const locker = new Database(path);
    locker.exec('BEGIN EXCLUSIVE');
    const error = await r.createMessage('s', 'default', message(0)).catch((e: unknown) => e);
    locker.exec('ROLLBACK');
    locker.close();
    expect(error).toBeInstanceOf(SessionError);
    expect((error as Error).message).toMatch(/is locked by another connection .*raise busyTimeoutMs/);
    expect(await r.listMessages('s', 'default')).toEqual([]);
    await r.createMessage('s', 'default', message(0));
  });

  it('bad options are a ConfigurationError naming the option', () => {
    expect(() => new SqliteSessionRepository({ path: '' })).toThrow(/needs path/);
    expect(() => new SqliteSessionRepository({ path, synchronous: 'OFF' as 'FULL' })).toThrow(/synchronous must be/);
    expect(() => new SqliteSessionRepository({ path, leaseTtl: 5 } as never)).toThrow(
      /does not know the option leaseTtl/,
    );
  });
});

describe('SqliteSessionRepository: group commit', () => {
  it('writes of several sessions ready in the same turn commit in one transaction; a failing one fails alone', async () => {
    const r = open();
    for (const id of ['a', 'b', 'c']) await withAgent(r, id);
    const before = r.stats.transactions;
    const results = await Promise.allSettled([
      r.createMessage('a', 'default', message(0)),
      r.createMessage('b', 'default', message(0)),
      r.createAgent('c', agent()), // exists: this write fails, the others commit
      r.writeBatch('c', [
        { op: 'createMessage', agentId: 'default', message: message(0) },
        { op: 'updateAgent', agent: { ...agent(), state: { n: 1 } } },
      ]),
    ]);
    expect(results.map((x) => x.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(SessionConflictError);
    expect(r.stats.transactions - before).toBe(1);
    for (const id of ['a', 'b', 'c']) expect((await r.listMessages(id, 'default')).length).toBe(1);
    expect((await r.readAgent('c', 'default'))?.state).toEqual({ n: 1 });
  });

  it('groupCommit: false commits each write in its own transaction', async () => {
    const r = open({ groupCommit: false });
    await withAgent(r, 'a');
    const before = r.stats.transactions;
    await Promise.all([r.createMessage('a', 'default', message(0)), r.createMessage('a', 'default', message(1))]);
    expect(r.stats.transactions - before).toBe(2);
  });
});

describe('SqliteSessionRepository: the lease', () => {
  const lease = (sessionId: string, pid: number, host: string, expiresAt: number) => {
    const db = new Database(path);
    db.prepare('INSERT OR REPLACE INTO skein_leases VALUES (?, 7, ?, ?, ?, ?)').run(
      sessionId,
      'someone',
      pid,
      host,
      expiresAt,
    );
    db.close();
  };

  it('a lease left by a dead process of this host is taken over at once', async () => {
    await withAgent(open(), 's');
    await Promise.all(opened.splice(0).map((r) => r.close()));
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    lease('s', dead, os.hostname(), Date.now() + 60_000);
    await open().createMessage('s', 'default', message(0));
  });

  it('a live holder keeps the session; an expired lease of another host is taken over; takeover: true takes it', async () => {
    await withAgent(open(), 's');
    await Promise.all(opened.splice(0).map((r) => r.close()));
    lease('s', process.ppid, os.hostname(), Date.now() + 60_000);
    const error = await open()
      .createMessage('s', 'default', message(0))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionConflictError);
    expect((error as Error).message).toContain(`process ${process.ppid} on ${os.hostname()}`);
    lease('s', 1, 'other-host', Date.now() - 1);
    await open().createMessage('s', 'default', message(0));
    lease('s', process.ppid, os.hostname(), Date.now() + 60_000);
    await open({ takeover: true }).createMessage('s', 'default', message(1));
  });

  it('a writer whose lease was taken over is told so at its next write, which stores nothing', async () => {
    const first = open({ leaseTtlMs: 50 });
    await withAgent(first, 's');
    await new Promise((resolve) => setTimeout(resolve, 80));
    await open().createMessage('s', 'default', message(0)); // the expired lease is taken over
    const error = await first.createMessage('s', 'default', message(1)).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/no longer holds it: another writer .* took it over/);
    expect((await open().listMessages('s', 'default')).length).toBe(1);
  });
});
