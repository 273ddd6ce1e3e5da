/** The PostgreSQL server of the full tier, shared by every file of the run (a database per test). */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startPostgresServer, type PostgresServer } from '@skein/session-postgres/testing';
import { inject } from 'vitest';
import './provided.js';

/** What a test needs to reach the shared PostgreSQL (JSON, provided by the global setup). */
export interface PostgresInfo {
  host: string;
  port: number;
  user: string;
}

/**
 * A `PostgresServer` for a server started elsewhere: the same databases; `stop()` leaves it running,
 * and `kill()`/`restart()` are refused (a test that crashes the server starts one of its own).
 */
function postgresServerAt(info: PostgresInfo): PostgresServer {
  const connectionString = (database = 'postgres'): string =>
    `postgres://${info.user}@${info.host}:${info.port}/${database}`;
  const shared = (): Promise<never> =>
    Promise.reject(new Error('The run shares this PostgreSQL server: start one of your own to kill or restart it.'));
  return {
    ...info,
    connectionString,
    async createDatabase(prefix = 'skein_test') {
      const name = `${prefix}_${randomBytes(6).toString('hex')}`;
      const client = new pg.Client({ connectionString: connectionString() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return connectionString(name);
    },
    kill: shared,
    restart: shared,
    stop: async () => undefined,
  };
}

/**
 * The run's PostgreSQL (started once by the full tier's global setup), or one of this file's own when
 * the file runs outside the full project. Make your own database (`createDatabase`); `stop()` stops
 * only a server this call started.
 */
export async function postgresServer(): Promise<PostgresServer> {
  const info = inject('postgres');
  return info ? postgresServerAt(info) : startPostgresServer();
}
