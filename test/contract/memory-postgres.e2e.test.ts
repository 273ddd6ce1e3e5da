import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresMemoryStore } from '@skein/session-postgres';
import type { PostgresServer } from '@skein/session-postgres/testing';
import { afterAll, beforeAll } from 'vitest';
import { postgresServer } from '../servers/index.js';
import { memoryStoreContract, trackedMemoryStorage } from './memory-store-contract.js';

// The full tier's PostgreSQL; this file's own database, each test its own schema.
let server: PostgresServer;
let connectionString: string;
let admin: pg.Pool;
beforeAll(async () => {
  server = await postgresServer();
  connectionString = await server.createDatabase('memory');
  admin = new pg.Pool({ connectionString, max: 2 });
}, 600_000);
afterAll(async () => {
  await admin?.end();
  await server?.stop();
}, 120_000);

memoryStoreContract({
  name: 'postgres',
  sharedWriters: true,
  timeoutMs: 60_000,
  async fresh() {
    const schema = `m_${randomBytes(5).toString('hex')}`;
    return trackedMemoryStorage(
      () => new PostgresMemoryStore({ connectionString, schema, poolSize: 2 }),
      // Every row of every table of the schema, as text (the tsvector index column included).
      async (needle) => {
        const tables = await admin.query<{ table_name: string }>(
          'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
          [schema],
        );
        for (const { table_name } of tables.rows) {
          const found = await admin.query(`SELECT 1 FROM ${schema}.${table_name} t WHERE t::text LIKE $1 LIMIT 1`, [
            `%${needle}%`,
          ]);
          if ((found.rowCount ?? 0) > 0) return true;
        }
        return false;
      },
      async () => void (await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)),
    );
  },
});
