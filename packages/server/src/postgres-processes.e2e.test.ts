/**
 * Several server processes on one PostgreSQL behave as one (issue 46): `"wait": true` waits for a
 * turn that runs in another process (woken by the store's `NOTIFY` when its lease is given up); a
 * process busy elsewhere answers 409 with `retry-after`; and a holder on another host (a UTS namespace
 * of its own) killed mid-turn is found gone at once: a re-join on a live process resumes within 5 s,
 * not when the lease expires. Measured times are printed (`[measured]`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresSessionRepository } from '@skein/session-postgres';
import type { PostgresServer } from '@skein/session-postgres/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresServer } from '../../../test/servers/index.js';
import { parseSse, readSseUntil } from './test-support/sse-frames.js';
import { spawnServer, type ServerProcess } from './test-support/spawn-server.js';

let server: PostgresServer;
let connectionString = '';
beforeAll(async () => {
  server = await postgresServer();
  connectionString = await server.createDatabase('server_processes');
}, 600_000);
afterAll(() => server?.stop(), 120_000);

const dirs: string[] = [];
const procs: ServerProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) p.child.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(answerDelayMs: number): { env: Record<string, string>; ledger: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'skein-server-pg-'));
  dirs.push(dir);
  const ledger = join(dir, 'ledger.txt');
  writeFileSync(ledger, '');
  return {
    env: {
      SKEIN_POSTGRES: connectionString,
      SKEIN_STORE: join(dir, 'unused'),
      SKEIN_LEDGER: ledger,
      SKEIN_ANSWER_DELAY_MS: String(answerDelayMs),
    },
    ledger: () =>
      readFileSync(ledger, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
  };
}

async function start(env: Record<string, string>, hostname?: string): Promise<ServerProcess> {
  const p = await spawnServer(env, hostname ? { hostname } : {});
  procs.push(p);
  return p;
}

const post = (url: string, path: string, body: unknown, sse = false): Promise<Response> =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(sse ? { accept: 'text/event-stream' } : {}) },
    body: JSON.stringify(body),
  });

describe('server processes on one PostgreSQL', () => {
  it('"wait": true waits for the turn another process runs, and goes on as soon as it ends; without it, 409 with retry-after', async () => {
    const { env } = setup(1500);
    const [a, b] = await Promise.all([start(env), start(env)]);
    const path = '/v1/agents/refund/conversations/wait-1/messages';
    const first = await post(a.url, path, { message: 'Refund order 42' }, true);
    const watch = first.clone();
    const firstEvents = readSseUntil(first, (events) => events.some((e) => e.event === 'turnEnd'));
    await readSseUntil(watch, (events) => events.some((e) => e.event === 'toolStart'));

    const busy = await post(b.url, path, { message: 'me too' });
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await busy.json()).toMatchObject({
      type: 'https://skein.dev/problems#conversation-busy',
      retryAfter: 1,
      detail: expect.stringContaining('"wait": true'),
    });

    const asked = performance.now();
    let firstEnded = 0;
    void firstEvents.then(() => (firstEnded = performance.now()));
    const waited = await post(b.url, path, { message: 'and now?', wait: true }, true);
    expect(waited.status).toBe(200);
    const second = await readSseUntil(waited, (events) => events.some((e) => e.event === 'turnStart'));
    const started = performance.now();
    const ended = (await firstEvents).find((e) => e.event === 'turnEnd');
    expect(ended?.data).toMatchObject({ result: { status: 'completed', turn: 1 } });
    expect(second.find((e) => e.event === 'turnStart')?.data).toMatchObject({ turn: 2 });
    console.log(
      `[measured] wait: true across processes: its turn started ${Math.round(started - asked)} ms after it was asked, ${Math.round(started - firstEnded)} ms after the other process's turnEnd reached its client`,
    );
  }, 60_000);

  it('a holder on another host killed mid-turn: a re-join on a live process resumes it within 5 s, the tool run once', async () => {
    const { env, ledger } = setup(1500);
    const [other, live] = await Promise.all([start(env, 'skein-other-host'), start(env)]);
    const res = await post(
      other.url,
      '/v1/agents/refund/conversations/kill-1/messages',
      { message: 'Refund order 42' },
      true,
    );
    const seen = await readSseUntil(res, (events) =>
      events.some((e) => e.event === 'messageAdded' && JSON.stringify(e.data).includes('toolResult')),
    );
    // The lease names the other host: this host cannot see its process, only its presence in the database.
    const repository = new PostgresSessionRepository({ connectionString });
    const pool = await repository.pool();
    const lease = await pool.query<{ host: string }>("SELECT host FROM skein_leases WHERE session_id = 'kill-1'");
    expect(lease.rows[0]?.host).toBe('skein-other-host');
    await repository.close();

    other.child.kill('SIGKILL');
    await other.exited;
    const killed = performance.now();
    const rejoin = await fetch(`${live.url}/v1/agents/refund/conversations/kill-1/stream`, {
      headers: { 'last-event-id': seen.at(-1)?.id as string },
    });
    expect(rejoin.status).toBe(200);
    const events = await readSseUntil(rejoin, (e) => e.some((x) => x.event === 'resumed'));
    const resumed = performance.now() - killed;
    expect(events[0]?.event).toBe('resumed');
    expect(resumed).toBeLessThan(5_000);
    console.log(`[measured] dead holder on another host: the re-join resumed ${Math.round(resumed)} ms after the kill`);

    const done = parseSse(await (await fetch(`${live.url}/v1/agents/refund/conversations/kill-1/stream`)).text());
    expect(done.at(-1)?.data).toMatchObject({ result: { status: 'completed', text: 'Your refund is on its way.' } });
    expect(ledger().filter((l) => l.startsWith('tool:'))).toEqual(['tool:issue_refund:42:20']);
  }, 60_000);
});
