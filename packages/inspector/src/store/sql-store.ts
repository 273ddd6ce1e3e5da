import type { MemoryStore } from '@skein/core';
import { PostgresMemoryStore, PostgresSessionRepository } from '@skein/session-postgres';
import { SqliteMemoryStore, SqliteSessionRepository } from '@skein/session-sqlite';
import type { InspectorStore } from './inspector-store.js';

/** Opens `sqlite:./desk.db` (read-only unless `writable`: then it is created when missing). */
export function openSqliteStore(spec: string, writable = false): InspectorStore {
  const path = spec.slice('sqlite:'.length);
  const repository = new SqliteSessionRepository({ path, readonly: !writable });
  return sqlStore(spec, repository, new SqliteMemoryStore({ path, readonly: !writable }));
}

/** Opens `postgres://user@host:port/database` (the tables are created on first use). */
export function openPostgresStore(spec: string): InspectorStore {
  const url = new URL(spec);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const options = { connectionString: url.toString(), poolSize: 4, ...(schema ? { schema } : {}) };
  const repository = new PostgresSessionRepository(options);
  return sqlStore(spec.replace(/:[^:@/]*@/, ':***@'), repository, new PostgresMemoryStore({ ...options, poolSize: 2 }));
}

function sqlStore(
  label: string,
  repository: SqliteSessionRepository | PostgresSessionRepository,
  memory: MemoryStore,
): InspectorStore {
  return {
    label,
    repository,
    memory,
    listSessions: () => repository.listSessions(),
    listAgents: (id) => repository.listIds(id, 'agents'),
    listMultiAgents: (id) => repository.listIds(id, 'multiAgents'),
    readRawMultiAgent: async (id, multiAgentId) => (await repository.readMultiAgent(id, multiAgentId)) ?? null,
    close: async () => {
      await repository.close();
      await memory.close?.();
    },
  };
}
