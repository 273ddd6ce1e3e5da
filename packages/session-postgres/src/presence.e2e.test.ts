/**
 * A writer's presence (issue 46), with a real writer process on "another host" (a UTS namespace of
 * its own, `unshare --uts`, as root): while it lives its lease is respected; once it is killed
 * another writer claims the session at once instead of when the lease expires; and a writer waiting
 * for the session is woken when the holder gives it up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SessionConflictError } from '@skein/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresServer } from '../../../test/servers/index.js';
import { PostgresSessionRepository } from './index.js';
import type { PostgresServer } from './testing/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const source = pathToFileURL(fileURLToPath(new URL('./index.ts', import.meta.url))).href;
const CHILD = `
import { PostgresSessionRepository } from '${source}';
const [connectionString, schema, sessionId] = process.argv.slice(2);
const at = new Date().toISOString();
const repository = new PostgresSessionRepository({ connectionString, schema });
await repository.createSession({ session_id: sessionId, session_type: 'AGENT', created_at: at, updated_at: at });
process.stdout.write('held\\n');
process.stdin.on('data', async () => {
  await repository.release(sessionId);
  process.stdout.write('released\\n');
});
`;

let server: PostgresServer;
let url = '';
let dir = '';
const children: ChildProcess[] = [];
const opened: PostgresSessionRepository[] = [];
beforeAll(async () => {
  server = await postgresServer();
  url = await server.createDatabase('presence');
  dir = await mkdtemp(join(tmpdir(), 'skein-pg-presence-'));
  await writeFile(join(dir, 'holder.mts'), CHILD);
}, 600_000);
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(opened.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await server?.stop();
}, 120_000);

/** A writer holding `sessionId` in a process whose host name is `skein-pg-other`. */
async function holderOnAnotherHost(schema: string, sessionId: string): Promise<ChildProcess> {
  const node = [process.execPath, '--conditions=@skein/source', '--import', 'tsx', join(dir, 'holder.mts')];
  const child = spawn(
    'unshare',
    ['--uts', 'sh', '-c', 'hostname skein-pg-other && exec "$@"', 'sh', ...node, url, schema, sessionId],
    {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  await said(child, 'held');
  return child;
}

function said(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(line)) resolve();
    });
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`holder exited (${code}) before "${line}": ${out}`)));
  });
}

const repository = (schema: string): PostgresSessionRepository => {
  const r = new PostgresSessionRepository({ connectionString: url, schema });
  opened.push(r);
  return r;
};
const at = new Date().toISOString();
const claim = (r: PostgresSessionRepository, sessionId: string) =>
  r.createAgent(sessionId, {
    agent_id: 'a',
    state: {},
    conversation_manager_state: {},
    created_at: at,
    updated_at: at,
  });

describe('a writer on another host', () => {
  it('is respected while it lives; once killed, another writer claims the session at once', async () => {
    const schema = `t_${randomBytes(5).toString('hex')}`;
    const holder = await holderOnAnotherHost(schema, 's1');
    const other = repository(schema);
    const refused = await claim(other, 's1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SessionConflictError);
    expect(String(refused)).toContain('on skein-pg-other');

    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const killed = performance.now();
    for (;;) {
      const error = await claim(other, 's1').catch((e: unknown) => e);
      if (error === undefined) break;
      expect(error).toBeInstanceOf(SessionConflictError);
      expect(performance.now() - killed).toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    console.log(
      `[measured] a killed holder on another host was taken over ${Math.round(performance.now() - killed)} ms after the kill`,
    );
    expect(await other.readAgent('s1', 'a')).toMatchObject({ agent_id: 'a' });
  }, 60_000);

  it('a writer waiting for the session is woken when the holder gives it up', async () => {
    const schema = `t_${randomBytes(5).toString('hex')}`;
    const holder = await holderOnAnotherHost(schema, 's2');
    const waiter = repository(schema);
    expect(await waiter.waitForRelease('s2', 300)).toBe(false);
    const waiting = waiter.waitForRelease('s2', 20_000);
    const asked = performance.now();
    holder.stdin?.write('release\n');
    expect(await waiting).toBe(true);
    console.log(
      `[measured] waitForRelease woke ${Math.round(performance.now() - asked)} ms after the holder was asked to release`,
    );
    await claim(waiter, 's2');
  }, 60_000);
});
