import type BetterSqlite3 from 'better-sqlite3';
import {
  checkMemoryId,
  type JsonObject,
  type MemoryDocument,
  type MemoryHit,
  type MemoryMessage,
  type MemorySearchOptions,
  type MemoryStore,
  type MemoryVersionChange,
  nowIso,
} from '@skein/core';
import { openDatabase } from './database.js';
import { toSessionError } from './errors.js';
import { ensureMemorySchema, hasMemoryTables, hasMessageVersions, loadVectors, ownerToken } from './memory-schema.js';
import { bumpVersion, readVersion } from './memory-versions.js';
import { COLUMNS, type Row, toBlob, toMessage } from './memory-rows.js';
import { newestRanked } from './memory-search.js';
import { resolveSqliteOptions, type ResolvedSqliteOptions, type SqliteSessionRepositoryOptions } from './options.js';

/** Options of {@link SqliteMemoryStore}: the database file (the sessions' own, or another). */
export type SqliteMemoryStoreOptions = Pick<
  SqliteSessionRepositoryOptions,
  'path' | 'readonly' | 'busyTimeoutMs' | 'synchronous'
>;

/**
 * Long-term memory in an SQLite file, beside the sessions (same file or another): documents,
 * messages, an FTS5 index for lexical recall, and float32 vectors compared by sqlite-vec. Erasing a
 * resource deletes its rows, merges the index and checkpoints the WAL with `secure_delete` on, so no
 * byte of it stays in the file.
 * @example
 * const memory = new Memory({ store: new SqliteMemoryStore({ path: './desk.db' }) });
 */
export class SqliteMemoryStore implements MemoryStore {
  readonly label: string;
  readonly #options: ResolvedSqliteOptions;
  #db: BetterSqlite3.Database | undefined;
  #vectors = false;
  /** False for a read-only file written before messages had versions. */
  #versioned = false;
  /** Statements prepared once per connection, by their SQL. */
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(options: SqliteMemoryStoreOptions) {
    this.#options = resolveSqliteOptions(options, 'SqliteMemoryStore');
    this.label = this.#options.store;
  }

  /** The connection, opened (and the tables made) on first use; `undefined` for a read-only file without memory tables. */
  #open(): BetterSqlite3.Database | undefined {
    if (this.#db) return this.#db;
    const db = openDatabase(this.#options);
    try {
      if (!this.#options.readonly) ensureMemorySchema(db);
      else if (!hasMemoryTables(db)) {
        db.close();
        return undefined;
      }
      db.pragma('secure_delete = ON');
      this.#versioned = hasMessageVersions(db);
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db = db;
    return db;
  }

  #run<T>(doing: string, work: (db: BetterSqlite3.Database) => T, absent: T): Promise<T> {
    try {
      const db = this.#open();
      return Promise.resolve(db ? work(db) : absent);
    } catch (error) {
      return Promise.reject(toSessionError(error, this.label, doing, this.#options.busyTimeoutMs));
    }
  }

  async readDocument(resource: string, key: string): Promise<MemoryDocument | undefined> {
    checkMemoryId(resource, 'resource');
    checkMemoryId(key, 'document key');
    return this.#run(
      'reading memory',
      (db) => {
        const row = this.#st(
          db,
          'SELECT key, doc, version, updated_at FROM skein_memory_docs WHERE resource = ? AND key = ?',
        ).get(resource, key) as { key: string; doc: string; version: number; updated_at: string } | undefined;
        return (
          row && { key, value: JSON.parse(row.doc) as JsonObject, version: row.version, updatedAt: row.updated_at }
        );
      },
      undefined,
    );
  }

  async writeDocument(resource: string, key: string, value: JsonObject, expected: number): Promise<boolean> {
    checkMemoryId(resource, 'resource');
    checkMemoryId(key, 'document key');
    const doc = JSON.stringify(value);
    return this.#run(
      'writing memory',
      (db) =>
        (expected === 0
          ? this.#st(
              db,
              'INSERT INTO skein_memory_docs (resource, key, version, doc, updated_at) VALUES (?, ?, 1, ?, ?) ON CONFLICT DO NOTHING',
            ).run(resource, key, doc, nowIso())
          : this.#st(
              db,
              'UPDATE skein_memory_docs SET version = version + 1, doc = ?, updated_at = ? WHERE resource = ? AND key = ? AND version = ?',
            ).run(doc, nowIso(), resource, key, expected)
        ).changes === 1,
      false,
    );
  }

  async listDocuments(resource: string): Promise<MemoryDocument[]> {
    checkMemoryId(resource, 'resource');
    return this.#run(
      'reading memory',
      (db) =>
        (
          this.#st(
            db,
            'SELECT key, doc, version, updated_at FROM skein_memory_docs WHERE resource = ? ORDER BY key',
          ).all(resource) as { key: string; doc: string; version: number; updated_at: string }[]
        ).map((r) => ({
          key: r.key,
          value: JSON.parse(r.doc) as JsonObject,
          version: r.version,
          updatedAt: r.updated_at,
        })),
      [],
    );
  }

  async putMessages(resource: string, messages: readonly MemoryMessage[]): Promise<MemoryVersionChange | undefined> {
    checkMemoryId(resource, 'resource');
    for (const m of messages) checkMemoryId(m.thread, 'thread');
    const owner = ownerToken(resource);
    return this.#run(
      'writing memory',
      (db) => {
        const put = this.#st(
          db,
          `INSERT INTO skein_memory_messages (resource, owner, thread, seq, role, text, at, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (resource, thread, seq) DO UPDATE SET role = excluded.role, text = excluded.text, at = excluded.at, embedding = excluded.embedding`,
        );
        // The version before and after, in the write's transaction: no other writer's change falls between.
        return db.transaction(() => {
          const before = this.#version(db, resource);
          for (const m of messages)
            put.run(resource, owner, m.thread, m.seq, m.role, m.text, m.at, m.embedding ? toBlob(m.embedding) : null);
          if (before === undefined || messages.length === 0) return undefined;
          return { before, after: bumpVersion((sql) => this.#st(db, sql), resource) };
        })();
      },
      undefined,
    );
  }

  async messageVersion(resource: string): Promise<number | undefined> {
    checkMemoryId(resource, 'resource');
    return this.#run('reading memory', (db) => this.#version(db, resource), undefined);
  }

  /** The resource's message version; `undefined` when this file keeps none. */
  #version(db: BetterSqlite3.Database, resource: string): number | undefined {
    return this.#versioned ? readVersion((sql) => this.#st(db, sql), resource) : undefined;
  }

  async listMessages(resource: string): Promise<MemoryMessage[]> {
    checkMemoryId(resource, 'resource');
    return this.#run(
      'reading memory',
      (db) =>
        (
          this.#st(db, `SELECT ${COLUMNS} FROM skein_memory_messages WHERE resource = ? ORDER BY thread, seq`).all(
            resource,
          ) as Row[]
        ).map(toMessage),
      [],
    );
  }

  async readAround(
    resource: string,
    thread: string,
    seq: number,
    before: number,
    after: number,
  ): Promise<MemoryMessage[]> {
    checkMemoryId(resource, 'resource');
    checkMemoryId(thread, 'thread');
    return this.#run(
      'reading memory',
      (db) => {
        // One statement: the hit and up to `before` messages before it (newest first), then up to `after` after it.
        const rows = this.#st(
          db,
          `SELECT * FROM (SELECT ${COLUMNS}, 0 AS side FROM skein_memory_messages WHERE resource = ? AND thread = ? AND seq <= ? ORDER BY seq DESC LIMIT ?)
           UNION ALL SELECT * FROM (SELECT ${COLUMNS}, 1 AS side FROM skein_memory_messages WHERE resource = ? AND thread = ? AND seq > ? ORDER BY seq LIMIT ?)`,
        ).all(resource, thread, seq, before + 1, resource, thread, seq, after) as (Row & { side: number })[];
        const upTo = rows.filter((r) => r.side === 0);
        if (Number(upTo[0]?.seq) !== seq) return [];
        return [...upTo.reverse(), ...rows.filter((r) => r.side === 1)].map(toMessage);
      },
      [],
    );
  }

  async searchText(resource: string, terms: readonly string[], options: MemorySearchOptions): Promise<MemoryHit[]> {
    checkMemoryId(resource, 'resource');
    const owner = `"${ownerToken(resource)}"`;
    const matches = [...new Set(terms)].map((t) => `${owner} AND "${t.replace(/"/g, '""')}"`);
    if (matches.length === 0) return [];
    return this.#run(
      'searching memory',
      (db) => newestRanked((sql) => this.#st(db, sql), resource, matches, terms, options),
      [],
    );
  }

  async searchVector(resource: string, vector: readonly number[], options: MemorySearchOptions): Promise<MemoryHit[]> {
    checkMemoryId(resource, 'resource');
    return this.#run(
      'searching memory',
      (db) => {
        if (!this.#vectors) {
          loadVectors(db);
          this.#vectors = true;
        }
        const rows = this.#st(
          db,
          `SELECT ${COLUMNS}, vec_distance_cosine(embedding, ?) AS distance FROM skein_memory_messages
             WHERE resource = ? AND thread <> ? AND length(embedding) = ? ORDER BY distance LIMIT ?`,
        ).all(toBlob(vector), resource, options.excludeThread ?? '', vector.length * 4, options.limit) as (Row & {
          distance: number;
        })[];
        return rows.map((r) => ({ message: toMessage(r), score: 1 - r.distance }));
      },
      [],
    );
  }

  async listResources(): Promise<string[]> {
    return this.#run(
      'reading memory',
      (db) =>
        (
          this.#st(
            db,
            'SELECT resource FROM skein_memory_docs UNION SELECT resource FROM skein_memory_messages ORDER BY resource',
          ).all() as { resource: string }[]
        ).map((r) => r.resource),
      [],
    );
  }

  async forget(resource: string): Promise<void> {
    checkMemoryId(resource, 'resource');
    return this.#run(
      'erasing memory',
      (db) => {
        db.transaction(() => {
          this.#st(db, 'DELETE FROM skein_memory_docs WHERE resource = ?').run(resource);
          this.#st(db, 'DELETE FROM skein_memory_messages WHERE resource = ?').run(resource);
          // Its version goes back to 0 (none); the clock keeps its place, so no other old version comes back.
          this.#st(db, 'DELETE FROM skein_memory_versions WHERE resource = ?').run(resource);
        })();
        // Merge the index's segments (dropping what was deleted), then copy the WAL back with its pages zeroed.
        this.#st(db, "INSERT INTO skein_memory_fts (skein_memory_fts) VALUES ('optimize')").run();
        db.pragma('wal_checkpoint(TRUNCATE)');
      },
      undefined,
    );
  }

  #st(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  }

  async close(): Promise<void> {
    this.#db?.close();
    this.#db = undefined;
    this.#statements.clear();
  }
}
