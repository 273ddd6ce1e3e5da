import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type * as SqliteVec from 'sqlite-vec';

/** The version of the memory tables this package writes (`skein_meta.memory_schema_version`). */
const MEMORY_SCHEMA_VERSION = '2';

/**
 * Long-term memory beside the sessions: documents (compare-and-set by version), messages with their
 * optional embedding (float32 BLOB, compared by sqlite-vec), and an FTS5 index over the messages'
 * text kept by triggers. `owner` is a per-resource token of digits, so that a search matches only
 * the resource's own rows inside the index (contentless: the index holds no copy of the text).
 * `skein_memory_versions` gives each resource's messages a version that every write of them moves (in
 * the write's transaction): the next value of a clock kept in the row of resource '' (never a
 * resource id), so a version never comes back after `forget` deletes the resource's row; 0 (no row)
 * means no messages. A file of version 1 gets the table and version 1 for each resource with messages.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS skein_memory_docs (
  resource TEXT NOT NULL, key TEXT NOT NULL, version INTEGER NOT NULL, doc TEXT NOT NULL, updated_at TEXT NOT NULL,
  PRIMARY KEY (resource, key));
CREATE TABLE IF NOT EXISTS skein_memory_messages (
  id INTEGER PRIMARY KEY, resource TEXT NOT NULL, owner TEXT NOT NULL, thread TEXT NOT NULL, seq INTEGER NOT NULL,
  role TEXT NOT NULL, text TEXT NOT NULL, at TEXT NOT NULL, embedding BLOB,
  UNIQUE (resource, thread, seq));
CREATE VIRTUAL TABLE IF NOT EXISTS skein_memory_fts USING fts5(
  text, content='', contentless_delete=1, tokenize='porter unicode61');
CREATE TRIGGER IF NOT EXISTS skein_memory_fts_ai AFTER INSERT ON skein_memory_messages BEGIN
  INSERT INTO skein_memory_fts (rowid, text) VALUES (new.id, new.owner || ' ' || new.text); END;
CREATE TRIGGER IF NOT EXISTS skein_memory_fts_ad AFTER DELETE ON skein_memory_messages BEGIN
  DELETE FROM skein_memory_fts WHERE rowid = old.id; END;
CREATE TRIGGER IF NOT EXISTS skein_memory_fts_au AFTER UPDATE OF text ON skein_memory_messages BEGIN
  DELETE FROM skein_memory_fts WHERE rowid = old.id;
  INSERT INTO skein_memory_fts (rowid, text) VALUES (new.id, new.owner || ' ' || new.text); END;
CREATE TABLE IF NOT EXISTS skein_memory_versions (resource TEXT PRIMARY KEY, version INTEGER NOT NULL);
INSERT OR IGNORE INTO skein_memory_versions (resource, version) VALUES ('', 1);
INSERT OR IGNORE INTO skein_memory_versions (resource, version) SELECT DISTINCT resource, 1 FROM skein_memory_messages;
`;

/** The token that marks a resource's rows in the full-text index: digits (never stemmed, never a word). */
export function ownerToken(resource: string): string {
  const hex = createHash('sha256').update(resource).digest('hex').slice(0, 15);
  return `9${BigInt(`0x${hex}`).toString().padStart(19, '0')}`;
}

/** True when the memory tables exist (a database opened read-only may predate them). */
export function hasMemoryTables(db: BetterSqlite3.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'skein_memory_messages'").get() !== undefined;
}

/** True when the messages' versions are kept (files written before version 2 have no such table). */
export function hasMessageVersions(db: BetterSqlite3.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'skein_memory_versions'").get() !== undefined;
}

/** Creates the memory tables (or, in a file of version 1, what version 2 added) when missing, in one write transaction. */
export function ensureMemorySchema(db: BetterSqlite3.Database): void {
  if (hasMessageVersions(db)) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(DDL);
    db.prepare("INSERT OR REPLACE INTO skein_meta (key, value) VALUES ('memory_schema_version', ?)").run(
      MEMORY_SCHEMA_VERSION,
    );
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** Loads sqlite-vec (its npm package ships the extension binary) into the connection. */
export function loadVectors(db: BetterSqlite3.Database): void {
  const vec = createRequire(import.meta.url)('sqlite-vec') as typeof SqliteVec;
  vec.load(db);
}
