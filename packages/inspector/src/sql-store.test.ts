import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { SqliteSessionManager } from '@skein/session-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureIo } from './test-support/capture-io.js';
import { writeFixtureSessions } from './test-support/fixtures.js';

let dir = '';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo();
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-inspector-sql-'));
  await writeFixtureSessions(join(dir, 'files'));
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('skein sessions on SQLite and skein sessions copy', () => {
  it('copies a directory into sqlite:, lists and shows the same sessions, and copies back to file: equal', async () => {
    const db = `sqlite:${join(dir, 'desk.db')}`;
    const copied = await cli('sessions', 'copy', join(dir, 'files'), db);
    expect(copied.err).toBe('');
    expect(copied.code).toBe(0);
    expect(copied.out).toMatch(/Copied \d+ session\(s\) .* both read back equal/);
    const fromFiles = JSON.parse((await cli('sessions', join(dir, 'files'), '--json')).out) as { id: string }[];
    const fromDb = JSON.parse((await cli('sessions', db, '--json')).out) as { id: string }[];
    expect(fromDb).toEqual(fromFiles);
    expect(fromDb.length).toBeGreaterThan(1);
    for (const { id } of fromFiles) {
      const [a, b] = [await cli('show', join(dir, 'files'), id, '--json'), await cli('show', db, id, '--json')];
      expect(b.out).toBe(a.out);
    }
    const back = await cli('sessions', 'copy', db, `file:${join(dir, 'back')}`);
    expect(back.code).toBe(0);
    expect(JSON.parse((await cli('sessions', join(dir, 'back'), '--json')).out)).toEqual(fromFiles);
    // Once the copy returned, a copied session is one like any other: another writer goes on with it.
    const sessionManager = new SqliteSessionManager({ sessionId: 'agent-solo', path: join(dir, 'desk.db') });
    const solo = new Agent({ name: 'solo', model: new ScriptedModel(['Still 80 EUR.']), sessionManager });
    expect(String(await solo.invoke('And now?'))).toBe('Still 80 EUR.');
    await sessionManager.close();
  }, 120_000);

  it("refuses to copy over a session the target has, and names a database that is not skein's", async () => {
    const db = `sqlite:${join(dir, 'twice.db')}`;
    expect((await cli('sessions', 'copy', join(dir, 'files'), db)).code).toBe(0);
    const again = await cli('sessions', 'copy', join(dir, 'files'), db);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already has session .*nothing was copied over it/);
    const missing = await cli('sessions', `sqlite:${join(dir, 'nope.db')}`);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/nope\.db/);
  }, 120_000);
});
