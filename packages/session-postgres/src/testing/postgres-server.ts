import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensurePostgresInstalled } from './postgres-install.js';
import { PostgresProcess } from './postgres-process.js';

const run = promisify(execFile);

/** A running throwaway PostgreSQL server on 127.0.0.1 (see {@link startPostgresServer}). */
export interface PostgresServer {
  readonly host: string;
  readonly port: number;
  /** The superuser (trust authentication on 127.0.0.1). */
  readonly user: string;
  /** `postgres://<user>@127.0.0.1:<port>/<database>` (default database `postgres`). */
  connectionString(database?: string): string;
  /** Creates an empty database with a unique name starting with `prefix`; returns its connection string. */
  createDatabase(prefix?: string): Promise<string>;
  /** SIGKILLs the server and all its processes (a crash: no shutdown, no checkpoint). */
  kill(): Promise<void>;
  /** Starts the server again on the same data directory and port (it recovers from its WAL). */
  restart(): Promise<void>;
  /** Stops the server and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** Options of {@link startPostgresServer}. */
export interface PostgresServerOptions {
  /** `fsync` of the server: true (default) makes every acknowledged commit durable, as in production; false is faster. */
  fsync?: boolean;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** Run as the `postgres` user when this process is root (initdb and postgres refuse to run as root). */
async function serverUser(): Promise<{ uid?: number; gid?: number }> {
  if (!isRoot()) return {};
  const [uid, gid] = await serverUserIds();
  return { uid, gid };
}

/**
 * Starts a real PostgreSQL server for tests: Debian's `postgresql` (installed with apt-get when
 * missing), `initdb` into a fresh temp dir, listening on 127.0.0.1 on a free port, trust auth.
 * Takes ~2 s. A watchdog kills it if the test process dies first. Call `stop()` when done.
 * @example
 * const server = await startPostgresServer();
 * const connectionString = await server.createDatabase();
 * const repository = new PostgresSessionRepository({ connectionString });
 * await server.stop();
 */
export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = await ensurePostgresInstalled();
  const dir = await mkdtemp(join(tmpdir(), 'skein-session-postgres-'));
  const data = join(dir, 'data');
  const user = 'skein';
  const ids = await serverUser();
  if (ids.uid !== undefined && ids.gid !== undefined) {
    await chown(dir, ids.uid, ids.gid);
    await chmod(dir, 0o700);
  }
  const initArgs = ['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--no-sync'];
  await run(join(bin, 'initdb'), initArgs, { timeout: 120_000, cwd: dir, ...ids });
  const port = await freePort();
  const server = new PostgresProcess({ bin, dir, data, port, fsync: options.fsync === false ? 'off' : 'on', ids });
  await server.start();
  const connectionString = (database = 'postgres') => `postgres://${user}@127.0.0.1:${port}/${database}`;
  let stopped: Promise<void> | undefined;
  return {
    host: '127.0.0.1',
    port,
    user,
    connectionString,
    async createDatabase(prefix = 'skein_test') {
      const name = `${prefix}_${randomBytes(5).toString('hex')}`;
      const [psql, args] = [
        join(bin, 'psql'),
        ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', 'postgres', '-qc', `CREATE DATABASE ${name}`],
      ];
      await run(psql, args);
      return connectionString(name);
    },
    kill: () => server.kill(),
    async restart() {
      await server.kill();
      await server.start();
    },
    stop() {
      stopped ??= (async () => {
        await server.kill();
        server.stopWatchdog();
        await rm(dir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

async function serverUserIds(): Promise<[number, number]> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  return [Number(stdout.trim()), Number(group.trim())];
}
