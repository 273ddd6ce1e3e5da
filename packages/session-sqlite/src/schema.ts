import type BetterSqlite3 from 'better-sqlite3';
import { SessionError } from '@skein/core';

/** The schema version this package writes; `skein_meta.schema_version` holds the version of a database. */
export const SCHEMA_VERSION = 1;
/** `skein_meta.store`: marks a database as skein's. */
const STORE_MARK = 'skein-sessions';

/** One record kind per table; each record is a row whose `doc` holds its JSON (Strands' field names). */
const V1 = `
CREATE TABLE IF NOT EXISTS skein_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS skein_sessions (session_id TEXT PRIMARY KEY, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS skein_agents (
  session_id TEXT NOT NULL, agent_id TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (session_id, agent_id));
CREATE TABLE IF NOT EXISTS skein_messages (
  session_id TEXT NOT NULL, agent_id TEXT NOT NULL, message_id INTEGER NOT NULL, doc TEXT NOT NULL,
  PRIMARY KEY (session_id, agent_id, message_id));
CREATE TABLE IF NOT EXISTS skein_multi_agents (
  session_id TEXT NOT NULL, multi_agent_id TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (session_id, multi_agent_id));
CREATE TABLE IF NOT EXISTS skein_nodes (
  session_id TEXT NOT NULL, multi_agent_id TEXT NOT NULL, node_id TEXT NOT NULL, doc TEXT NOT NULL,
  PRIMARY KEY (session_id, multi_agent_id, node_id));
CREATE TABLE IF NOT EXISTS skein_transitions (
  session_id TEXT NOT NULL, multi_agent_id TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL,
  PRIMARY KEY (session_id, multi_agent_id, seq));
CREATE TABLE IF NOT EXISTS skein_leases (
  session_id TEXT PRIMARY KEY, generation INTEGER NOT NULL, owner TEXT, pid INTEGER, host TEXT, expires_at INTEGER);
`;

/** Migrations from version `n - 1` to `n`, by `n` (none yet: version 1 is the first). */
const MIGRATIONS: Record<number, string> = {};

type Db = BetterSqlite3.Database;

function metaValue(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM skein_meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

function tables(db: Db): string[] {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  return rows.map((r) => r.name);
}

/**
 * Checks that the database is skein's (or empty), not newer than this package, and brings an empty
 * or older one to {@link SCHEMA_VERSION}. Throws a `SessionError` naming `store` before anything is
 * written when the file holds other tables, another store's mark, or a newer schema.
 */
export function checkSchema(db: Db, store: string, readonly: boolean): void {
  const found = tables(db);
  if (found.length > 0 && !found.includes('skein_meta')) {
    const shown = found.slice(0, 5).join(', ') + (found.length > 5 ? ', ...' : '');
    throw new SessionError(
      `${store} is an SQLite database that is not skein's (it has the tables ${shown} and no skein_meta); give the session store a file of its own (a new path is created). Nothing was written.`,
      { location: store },
    );
  }
  if (found.length === 0) {
    if (readonly)
      throw new SessionError(`${store} holds no skein sessions (an empty database); check the path.`, {
        location: store,
      });
    return migrate(db, store, 0);
  }
  const mark = metaValue(db, 'store');
  const version = Number(metaValue(db, 'schema_version'));
  if (mark !== STORE_MARK || !Number.isInteger(version)) {
    throw new SessionError(
      `${store} has a skein_meta table that is not skein's session store's (store ${JSON.stringify(mark)}, schema_version ${JSON.stringify(metaValue(db, 'schema_version'))}); give the session store a file of its own. Nothing was written.`,
      { location: store },
    );
  }
  if (version > SCHEMA_VERSION) {
    throw new SessionError(
      `${store} was written by a newer @skein/session-sqlite (schema version ${version}; this one reads up to ${SCHEMA_VERSION}); upgrade @skein/session-sqlite. Nothing was written.`,
      { location: store },
    );
  }
  if (version < SCHEMA_VERSION) {
    if (readonly)
      throw new SessionError(
        `${store} has schema version ${version}; open it once for writing with this @skein/session-sqlite to migrate it to ${SCHEMA_VERSION}.`,
        { location: store },
      );
    migrate(db, store, version);
  }
}

/** Creates or upgrades the schema in one write transaction (re-checked inside it: another process may have done it). */
function migrate(db: Db, store: string, from: number): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const current = tables(db).includes('skein_meta') ? Number(metaValue(db, 'schema_version') ?? 0) : 0;
    if (current === 0) {
      db.exec(V1);
      const put = db.prepare('INSERT OR REPLACE INTO skein_meta (key, value) VALUES (?, ?)');
      put.run('store', STORE_MARK);
      put.run('schema_version', '1');
    }
    for (let v = Math.max(current, 1) + 1; v <= SCHEMA_VERSION; v++) {
      const step = MIGRATIONS[v];
      if (step === undefined) throw new Error(`no migration to schema version ${v} (from ${from})`);
      db.exec(step);
      db.prepare("UPDATE skein_meta SET value = ? WHERE key = 'schema_version'").run(String(v));
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
