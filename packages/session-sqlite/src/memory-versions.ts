import type BetterSqlite3 from 'better-sqlite3';

/** Prepares (or reuses) a statement on the store's connection. */
type Prepare = (sql: string) => BetterSqlite3.Statement;

/** The resource's message version (0: no messages), as `skein_memory_versions` keeps it (see memory-schema.ts). */
export function readVersion(prepare: Prepare, resource: string): number {
  const row = prepare('SELECT version FROM skein_memory_versions WHERE resource = ?').get(resource) as
    | { version: number }
    | undefined;
  return row?.version ?? 0;
}

/** Moves the resource's message version to the clock's next value, and returns it (inside a write transaction). */
export function bumpVersion(prepare: Prepare, resource: string): number {
  const { version } = prepare(
    "UPDATE skein_memory_versions SET version = version + 1 WHERE resource = '' RETURNING version",
  ).get() as { version: number };
  prepare(
    'INSERT INTO skein_memory_versions (resource, version) VALUES (?, ?) ON CONFLICT (resource) DO UPDATE SET version = excluded.version',
  ).run(resource, version);
  return version;
}
