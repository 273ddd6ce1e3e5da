import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresSessionRepository } from '@skein/session-postgres';
import { startPostgresServer, type PostgresServer } from '@skein/session-postgres/testing';
import { afterAll, beforeAll } from 'vitest';
import { sessionContract, trackedStorage } from './session-contract.js';

// One real PostgreSQL server for the file; each test gets its own schema.
let server: PostgresServer;
let connectionString: string;
let admin: pg.Pool;
beforeAll(async () => {
  server = await startPostgresServer();
  connectionString = await server.createDatabase('contract');
  admin = new pg.Pool({ connectionString, max: 2 });
}, 600_000);
afterAll(async () => {
  await admin?.end();
  await server?.stop();
}, 120_000);

sessionContract({
  name: 'postgres',
  sharedWriters: true,
  async fresh() {
    const schema = `t_${randomBytes(5).toString('hex')}`;
    return trackedStorage(
      () => new PostgresSessionRepository({ connectionString, schema, poolSize: 4 }),
      async () => void (await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)),
      async (sessionId, agentId, messageId) =>
        void (await admin.query(
          `UPDATE ${schema}.skein_messages SET doc = '{"message": {"role": "user", "content": [' WHERE session_id = $1 AND agent_id = $2 AND message_id = $3`,
          [sessionId, agentId, messageId],
        )),
      async (sessionId, multiAgentId, nodeId) =>
        void (await admin.query(
          `DELETE FROM ${schema}.skein_nodes WHERE session_id = $1 AND multi_agent_id = $2 AND node_id = $3`,
          [sessionId, multiAgentId, nodeId],
        )),
    );
  },
});
