import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { SessionConflictError, SessionError, type SessionRepository } from '@skein/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSessionRepository } from './index.js';
import { startCuttingProxy, startPostgresServer, type CuttingProxy, type PostgresServer } from './testing/index.js';

let server: PostgresServer;
let url: string;
let database: string;
let admin: pg.Pool;
const opened: PostgresSessionRepository[] = [];
const at = '2025-07-23T19:09:41.714508+00:00';
const message = (id: number) => ({
  message: { role: 'user' as const, content: [{ text: `m${id}` }] },
  message_id: id,
  redact_message: null,
  created_at: at,
  updated_at: at,
});
const withAgent = async (r: SessionRepository, id: string) => {
  await r.createSession({ session_id: id, session_type: 'AGENT', created_at: at, updated_at: at });
  await r.createAgent(id, {
    agent_id: 'default',
    state: {},
    conversation_manager_state: {},
    created_at: at,
    updated_at: at,
  });
};
const schemaName = () => `t_${randomBytes(5).toString('hex')}`;
const open = (options: Partial<ConstructorParameters<typeof PostgresSessionRepository>[0]> & { schema: string }) => {
  const r = new PostgresSessionRepository({ connectionString: url, ...options } as ConstructorParameters<
    typeof PostgresSessionRepository
  >[0]);
  opened.push(r);
  return r;
};

beforeAll(async () => {
  server = await startPostgresServer();
  url = await server.createDatabase('store');
  database = new URL(url).pathname.slice(1);
  admin = new pg.Pool({ connectionString: url, max: 2 });
  admin.on('error', () => undefined);
}, 600_000);
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close().catch(() => undefined)));
});
afterAll(async () => {
  await admin?.end();
  await server?.stop();
}, 120_000);

describe('PostgresSessionRepository: bad input', () => {
  it('a connection string that does not connect: a SessionError naming the store, after the retries', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const r = new PostgresSessionRepository({
      connectionString: `postgres://skein:secret@127.0.0.1:${closed}/desk`,
      retry: { attempts: 2, initialDelayMs: 10 },
    });
    const error = await r.readSession('s').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `postgres://skein@127\\.0\\.0\\.1:${closed}/desk did not answer \\(2 attempts\\).*ECONNREFUSED.*Check that the server is up`,
      ),
    );
    expect((error as Error).message).not.toContain('secret');
    await r.close();
  });

  it('a database that does not exist: says to create it', async () => {
    const r = new PostgresSessionRepository({ connectionString: server.connectionString('nope') });
    await expect(r.readSession('s')).rejects.toThrow(/the database does not exist .*create it/);
    await r.close();
  });

  it("a newer schema version and skein-named tables that are not skein's: refused, nothing written", async () => {
    const schema = schemaName();
    await withAgent(open({ schema }), 's');
    await admin.query(`UPDATE ${schema}.skein_meta SET value = '9' WHERE key = 'schema_version'`);
    const error = await open({ schema })
      .createMessage('s', 'default', message(0))
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /newer @skein\/session-postgres \(schema version 9; this one reads up to 1\); upgrade/,
    );
    expect((await admin.query(`SELECT count(*)::int AS n FROM ${schema}.skein_messages`)).rows[0].n).toBe(0);
    const other = schemaName();
    await admin.query(`CREATE SCHEMA ${other}; CREATE TABLE ${other}.skein_sessions (id int)`);
    await expect(open({ schema: other }).readSession('s')).rejects.toThrow(/not skein's session store/);
    expect(
      (await admin.query('SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1', [other]))
        .rows[0].n,
    ).toBe(1);
  });
});

describe('PostgresSessionRepository: lost answers and a server crash', () => {
  let proxy: CuttingProxy;
  beforeAll(async () => {
    proxy = await startCuttingProxy('127.0.0.1', server.port);
  });
  afterAll(() => proxy.close());
  const viaProxy = (schema: string) =>
    open({ schema, connectionString: `postgres://skein@127.0.0.1:${proxy.port}/${database}` } as never);

  it('a write whose answer was lost is retried without being stored twice; a write cut before it is stored once', async () => {
    const schema = schemaName();
    const r = viaProxy(schema);
    // The first write claims the session in a transaction: its COMMIT's answer is lost.
    proxy.cutAt('COMMIT', 'after');
    await r.createSession({ session_id: 's', session_type: 'AGENT', created_at: at, updated_at: at });
    await r.createAgent('s', {
      agent_id: 'default',
      state: {},
      conversation_manager_state: {},
      created_at: at,
      updated_at: at,
    });
    // Later writes are one statement each (skein_step): its answer is lost, then one is cut before it.
    proxy.cutAt('skein_step', 'after');
    await r.writeBatch('s', [
      { op: 'createMessage', agentId: 'default', message: message(0) },
      { op: 'createMessage', agentId: 'default', message: message(1) },
    ]);
    proxy.cutAt('skein_step', 'before');
    await r.createMessage('s', 'default', message(2));
    expect(proxy.cuts).toBe(3);
    expect((await r.listMessages('s', 'default')).map((m) => m.message_id)).toEqual([0, 1, 2]);
  });

  it('the server SIGKILLed: writes fail with an error naming the store; after a restart the writer goes on, nothing lost', async () => {
    const schema = schemaName();
    const r = open({ schema, retry: { attempts: 2, initialDelayMs: 10 } });
    await withAgent(r, 's');
    await r.createMessage('s', 'default', message(0));
    await server.kill();
    const error = await r.createMessage('s', 'default', message(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as Error).message).toContain(`postgres://skein@127.0.0.1:${server.port}/${database}`);
    await server.restart();
    await r.createMessage('s', 'default', message(1));
    expect((await r.listMessages('s', 'default')).map((m) => m.message_id)).toEqual([0, 1]);
  }, 120_000);
});

describe('PostgresSessionRepository: the lease is a fence', () => {
  const lease = (schema: string, owner: string, pid: number, host: string, expiresAt: number) =>
    admin.query(
      `UPDATE ${schema}.skein_leases SET owner = $1, pid = $2, host = $3, expires_at = $4, generation = generation + 1`,
      [owner, pid, host, expiresAt],
    );

  it('a lease of a dead process of this host is taken over; a live one is not; takeover: true takes it', async () => {
    const schema = schemaName();
    const first = open({ schema });
    await withAgent(first, 's');
    await first.close();
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    await lease(schema, 'someone', dead, os.hostname(), Date.now() + 60_000);
    await open({ schema }).createMessage('s', 'default', message(0));
    await lease(schema, 'someone', process.ppid, os.hostname(), Date.now() + 60_000);
    await expect(open({ schema }).createMessage('s', 'default', message(1))).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    await open({ schema, takeover: true }).createMessage('s', 'default', message(1));
  });

  it('a writer whose lease another took over cannot write even once', async () => {
    const schema = schemaName();
    const r = open({ schema });
    await withAgent(r, 's');
    await lease(schema, 'another', process.ppid, 'other-host', Date.now() + 60_000);
    const error = await r.createMessage('s', 'default', message(0)).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/no longer holds it: another writer .* took it over/);
    expect((await admin.query(`SELECT count(*)::int AS n FROM ${schema}.skein_messages`)).rows[0].n).toBe(0);
  });
});
