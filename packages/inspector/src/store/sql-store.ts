import { PostgresSessionRepository } from '@skein/session-postgres';
import { SqliteSessionRepository } from '@skein/session-sqlite';
import type { InspectorStore } from './inspector-store.js';

/** Opens `sqlite:./desk.db` (read-only unless `writable`: then it is created when missing). */
export function openSqliteStore(spec: string, writable = false): InspectorStore {
  const path = spec.slice('sqlite:'.length);
  const repository = new SqliteSessionRepository({ path, readonly: !writable });
  return sqlStore(spec, repository);
}

/** Opens `postgres://user@host:port/database` (the tables are created on first use). */
export function openPostgresStore(spec: string): InspectorStore {
  const url = new URL(spec);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const repository = new PostgresSessionRepository({
    connectionString: url.toString(),
    poolSize: 4,
    ...(schema ? { schema } : {}),
  });
  return sqlStore(spec.replace(/:[^:@/]*@/, ':***@'), repository);
}

function sqlStore(label: string, repository: SqliteSessionRepository | PostgresSessionRepository): InspectorStore {
  return {
    label,
    repository,
    listSessions: () => repository.listSessions(),
    listAgents: (id) => repository.listIds(id, 'agents'),
    listMultiAgents: (id) => repository.listIds(id, 'multiAgents'),
    readRawMultiAgent: async (id, multiAgentId) => (await repository.readMultiAgent(id, multiAgentId)) ?? null,
    close: () => repository.close(),
  };
}
