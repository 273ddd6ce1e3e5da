/**
 * Where a reliability trial keeps its sessions: files in its directory (the default), S3 (a prefix of
 * a radosgw bucket), SQLite (a database file in its directory) or PostgreSQL (a schema of a database
 * per directory). The campaigns pass the store to their worker processes in `SKEIN_TRIAL_STORE`
 * (S3: `SKEIN_CRASH_S3`, as before), and read what was stored back as files in the Strands layout.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { SessionManager, SessionRepository } from '@skein/core';
import { FileSessionManager, FileSessionRepository } from '@skein/session-file';
import { PostgresSessionManager, PostgresSessionRepository } from '@skein/session-postgres';
import { S3SessionManager, S3SessionRepository } from '@skein/session-s3';
import { SqliteSessionManager, SqliteSessionRepository } from '@skein/session-sqlite';

/** S3: the bucket of a radosgw the campaign started; a trial directory's session goes under its own prefix. */
export interface S3Store {
  bucket: string;
  clientConfig: S3ClientConfig;
}

/** The SQL stores: SQLite (a file in each trial directory) or PostgreSQL (a schema per trial directory). */
export type SqlStore = { kind: 'sqlite' } | { kind: 'postgres'; connectionString: string };

export type TrialStore = S3Store | SqlStore;

type Closable<T> = T & { close(): Promise<void> };

/** What a worker process gets: `{ kind, ... }` for a trial directory. */
type StoreSpec =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; connectionString: string; schema: string }
  | { kind: 's3'; bucket: string; prefix: string; clientConfig: S3ClientConfig };

/** The S3 prefix of a trial directory's session (unique per trial and run). */
export const prefixOf = (dir: string): string => `${basename(dirname(dir))}/${basename(dir)}`;

/** The Postgres schema of a trial directory (unique per trial and run). */
const schemaOf = (dir: string): string => `r_${prefixOf(dir).replace(/[^A-Za-z0-9]/g, '_')}`.slice(0, 63).toLowerCase();

export const storeName = (store: TrialStore | undefined): string =>
  store === undefined ? 'file' : 'kind' in store ? store.kind : 's3';

function specOf(store: TrialStore | undefined, dir: string): StoreSpec | undefined {
  if (store === undefined) return undefined;
  if (!('kind' in store)) return { kind: 's3', ...store, prefix: prefixOf(dir) };
  if (store.kind === 'sqlite') return { kind: 'sqlite', path: join(dir, 'sessions.db') };
  return { kind: 'postgres', connectionString: store.connectionString, schema: schemaOf(dir) };
}

/** The environment of a worker process for a trial directory. */
export function storeEnv(store: TrialStore | undefined, dir: string): Record<string, string> {
  const spec = specOf(store, dir);
  if (spec === undefined) return {};
  if (spec.kind === 's3') {
    const { kind: _, ...s3 } = spec;
    return { SKEIN_CRASH_S3: JSON.stringify(s3) };
  }
  return { SKEIN_TRIAL_STORE: JSON.stringify(spec) };
}

/** In a worker: the spec its campaign gave it, if any. */
function workerSpec(): StoreSpec | undefined {
  const s3 = process.env['SKEIN_CRASH_S3'];
  if (s3) return { kind: 's3', ...(JSON.parse(s3) as Omit<Extract<StoreSpec, { kind: 's3' }>, 'kind'>) };
  const sql = process.env['SKEIN_TRIAL_STORE'];
  return sql ? (JSON.parse(sql) as StoreSpec) : undefined;
}

/** In a worker: the session manager of `sessionId` in the store its campaign gave it (files in `dir` by default). */
export function workerSessionManager(sessionId: string, dir: string): Closable<SessionManager> {
  const spec = workerSpec();
  if (spec === undefined) return new FileSessionManager({ sessionId, storageDir: dir });
  if (spec.kind === 's3') {
    const { kind: _, ...s3 } = spec;
    return new S3SessionManager({ sessionId, ...s3 });
  }
  if (spec.kind === 'sqlite') return new SqliteSessionManager({ sessionId, path: spec.path });
  return new PostgresSessionManager({
    sessionId,
    connectionString: spec.connectionString,
    schema: spec.schema,
    poolSize: 4,
    ...(process.env['SKEIN_PG_RETRY']
      ? { retry: JSON.parse(process.env['SKEIN_PG_RETRY']) as { attempts: number } }
      : {}),
  });
}

/** In a campaign: a repository on a trial directory's store, to check what was stored. */
export function trialRepository(store: TrialStore | undefined, dir: string): Closable<SessionRepository> {
  const spec = specOf(store, dir);
  if (spec === undefined)
    return Object.assign(new FileSessionRepository({ storageDir: dir }), { close: async () => undefined });
  if (spec.kind === 's3') {
    const r = new S3SessionRepository({ bucket: spec.bucket, prefix: spec.prefix, clientConfig: spec.clientConfig });
    return Object.assign(r, { close: async () => r.destroy() });
  }
  if (spec.kind === 'sqlite') return new SqliteSessionRepository({ path: spec.path });
  return new PostgresSessionRepository({ connectionString: spec.connectionString, schema: spec.schema, poolSize: 2 });
}

const SQL_FILES: [table: string, keys: string[], file: (k: string[]) => string][] = [
  ['skein_sessions', ['session_id'], ([s]) => `session_${s}/session.json`],
  ['skein_agents', ['session_id', 'agent_id'], ([s, a]) => `session_${s}/agents/agent_${a}/agent.json`],
  [
    'skein_messages',
    ['session_id', 'agent_id', 'message_id'],
    ([s, a, m]) => `session_${s}/agents/agent_${a}/messages/message_${m}.json`,
  ],
  [
    'skein_multi_agents',
    ['session_id', 'multi_agent_id'],
    ([s, g]) => `session_${s}/multi_agents/multi_agent_${g}/multi_agent.json`,
  ],
  [
    'skein_nodes',
    ['session_id', 'multi_agent_id', 'node_id'],
    ([s, g, n]) => `session_${s}/multi_agents/multi_agent_${g}/nodes/node_${n}.json`,
  ],
  [
    'skein_transitions',
    ['session_id', 'multi_agent_id', 'seq'],
    ([s, g, q]) => `session_${s}/multi_agents/multi_agent_${g}/transitions/transition_${q}.json`,
  ],
];

/** Every row of a table of a SQL store, as strings. */
async function rowsOf(spec: StoreSpec, sql: string): Promise<Record<string, unknown>[]> {
  if (spec.kind === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(spec.path, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }
  if (spec.kind !== 'postgres') return [];
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: spec.connectionString });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${spec.schema}`);
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/**
 * Copies what a trial directory's store holds into `dir/<kind>` as files in the Strands layout, so the
 * campaigns' file checks read them (S3 has its own mirror). A lease row still held is written as a
 * `.skein-lease` file: a final process that ran must leave none.
 */
export async function mirrorSql(store: SqlStore, dir: string): Promise<void> {
  const spec = specOf(store, dir) as StoreSpec;
  const root = join(dir, store.kind);
  for (const [table, keys, file] of SQL_FILES) {
    for (const row of await rowsOf(spec, `SELECT ${keys.join(', ')}, doc FROM ${table}`)) {
      const target = join(root, file(keys.map((k) => String(row[k]))));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, JSON.stringify(JSON.parse(String(row['doc'])), null, 2));
    }
  }
  for (const row of await rowsOf(spec, 'SELECT session_id FROM skein_leases WHERE owner IS NOT NULL')) {
    await mkdir(join(root, `session_${row['session_id']}`), { recursive: true });
    await writeFile(join(root, `session_${row['session_id']}`, '.skein-lease'), 'held');
  }
}
