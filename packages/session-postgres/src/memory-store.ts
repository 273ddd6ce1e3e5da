import {
  checkMemoryId,
  type JsonObject,
  type MemoryDocument,
  type MemoryHit,
  type MemoryMessage,
  type MemorySearchOptions,
  type MemoryStore,
  nowIso,
} from '@skein/core';
import type { Pool } from 'pg';
import { toSessionError } from './errors.js';
import { ensureMemorySchema } from './memory-schema.js';
import {
  type PostgresSessionRepositoryOptions,
  type ResolvedPostgresOptions,
  resolvePostgresOptions,
} from './options.js';
import { quoteIdent } from './schema.js';

/** Options of {@link PostgresMemoryStore}: the database (and schema) of the sessions, or another. */
export type PostgresMemoryStoreOptions = PostgresSessionRepositoryOptions;

interface Row {
  thread: string;
  seq: string;
  role: 'user' | 'assistant';
  text: string;
  at: string;
  embedding: number[] | null;
}

const COLUMNS = 'thread, seq, role, text, at, embedding';
/** A search ranks, for each of its words, the newest matches of the resource, at most this many (so recall does not grow with history). */
const CANDIDATES = 100;
const toMessage = (r: Row): MemoryMessage => ({
  thread: r.thread,
  seq: Number(r.seq),
  role: r.role,
  text: r.text,
  at: r.at,
  ...(r.embedding ? { embedding: r.embedding } : {}),
});

/**
 * Long-term memory in PostgreSQL beside the sessions: documents with compare-and-set, messages with
 * full-text search (a generated `tsvector`, GIN-indexed, ranked by `ts_rank`) and vectors as `real[]`
 * compared by cosine in SQL (pgvector's `<=>` when the extension is installed in the database).
 * @example
 * const memory = new Memory({ store: new PostgresMemoryStore({ connectionString: process.env.DATABASE_URL }) });
 */
export class PostgresMemoryStore implements MemoryStore {
  readonly label: string;
  readonly #options: ResolvedPostgresOptions;
  readonly #s: string;
  #ready: Promise<{ pool: Pool; pgvector: boolean }> | undefined;

  constructor(options: PostgresMemoryStoreOptions) {
    this.#options = resolvePostgresOptions(options, 'PostgresMemoryStore');
    this.label = this.#options.store;
    this.#s = quoteIdent(this.#options.schema);
  }

  #open(): Promise<{ pool: Pool; pgvector: boolean }> {
    this.#ready ??= (async () => {
      let pool = this.#options.pool;
      if (!pool) {
        const pg = (await import('pg')).default;
        pool = new pg.Pool({ connectionString: this.#options.connectionString, max: this.#options.poolSize });
        pool.on('error', () => undefined);
      }
      const client = await pool.connect();
      try {
        return { pool, pgvector: await ensureMemorySchema(client, this.#options.schema, this.label) };
      } finally {
        client.release();
      }
    })();
    this.#ready.catch(() => {
      this.#ready = undefined;
    });
    return this.#ready;
  }

  async #query<T>(doing: string, sql: string, params: unknown[]): Promise<{ rows: T[]; rowCount: number }> {
    try {
      const { pool } = await this.#open();
      const result = await pool.query(sql, params);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw toSessionError(error, this.label, doing);
    }
  }

  async readDocument(resource: string, key: string): Promise<MemoryDocument | undefined> {
    checkMemoryId(resource, 'resource');
    checkMemoryId(key, 'document key');
    const { rows } = await this.#query<{ doc: string; version: string; updated_at: string }>(
      'reading memory',
      `SELECT doc, version, updated_at FROM ${this.#s}.skein_memory_docs WHERE resource = $1 AND key = $2`,
      [resource, key],
    );
    const r = rows[0];
    return r && { key, value: JSON.parse(r.doc) as JsonObject, version: Number(r.version), updatedAt: r.updated_at };
  }

  async writeDocument(resource: string, key: string, value: JsonObject, expected: number): Promise<boolean> {
    checkMemoryId(resource, 'resource');
    checkMemoryId(key, 'document key');
    const doc = JSON.stringify(value);
    const { rowCount } =
      expected === 0
        ? await this.#query(
            'writing memory',
            `INSERT INTO ${this.#s}.skein_memory_docs (resource, key, version, doc, updated_at) VALUES ($1, $2, 1, $3, $4) ON CONFLICT DO NOTHING`,
            [resource, key, doc, nowIso()],
          )
        : await this.#query(
            'writing memory',
            `UPDATE ${this.#s}.skein_memory_docs SET version = version + 1, doc = $3, updated_at = $4 WHERE resource = $1 AND key = $2 AND version = $5`,
            [resource, key, doc, nowIso(), expected],
          );
    return rowCount === 1;
  }

  async listDocuments(resource: string): Promise<MemoryDocument[]> {
    checkMemoryId(resource, 'resource');
    const { rows } = await this.#query<{ key: string; doc: string; version: string; updated_at: string }>(
      'reading memory',
      `SELECT key, doc, version, updated_at FROM ${this.#s}.skein_memory_docs WHERE resource = $1 ORDER BY key`,
      [resource],
    );
    return rows.map((r) => ({
      key: r.key,
      value: JSON.parse(r.doc) as JsonObject,
      version: Number(r.version),
      updatedAt: r.updated_at,
    }));
  }

  async putMessages(resource: string, messages: readonly MemoryMessage[]): Promise<void> {
    checkMemoryId(resource, 'resource');
    for (const m of messages) checkMemoryId(m.thread, 'thread');
    if (messages.length === 0) return;
    // One statement (one transaction): the rows as parallel arrays, embeddings as JSON (arrays of unequal length).
    await this.#query(
      'writing memory',
      `INSERT INTO ${this.#s}.skein_memory_messages (resource, thread, seq, role, text, at, embedding)
       SELECT $1, t.thread, t.seq, t.role, t.text, t.at,
         CASE WHEN t.e IS NULL THEN NULL ELSE ARRAY(SELECT json_array_elements_text(t.e::json)::real) END
       FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(thread, seq, role, text, at, e)
       ON CONFLICT (resource, thread, seq) DO UPDATE SET role = excluded.role, text = excluded.text, at = excluded.at, embedding = excluded.embedding`,
      [
        resource,
        messages.map((m) => m.thread),
        messages.map((m) => m.seq),
        messages.map((m) => m.role),
        messages.map((m) => m.text),
        messages.map((m) => m.at),
        messages.map((m) => (m.embedding ? JSON.stringify(m.embedding) : null)),
      ],
    );
  }

  async listMessages(resource: string): Promise<MemoryMessage[]> {
    checkMemoryId(resource, 'resource');
    const { rows } = await this.#query<Row>(
      'reading memory',
      `SELECT ${COLUMNS} FROM ${this.#s}.skein_memory_messages WHERE resource = $1 ORDER BY thread, seq`,
      [resource],
    );
    return rows.map(toMessage);
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
    const { rows } = await this.#query<Row>(
      'reading memory',
      `(SELECT ${COLUMNS} FROM ${this.#s}.skein_memory_messages WHERE resource = $1 AND thread = $2 AND seq <= $3 ORDER BY seq DESC LIMIT $4)
       UNION ALL
       (SELECT ${COLUMNS} FROM ${this.#s}.skein_memory_messages WHERE resource = $1 AND thread = $2 AND seq > $3 ORDER BY seq LIMIT $5)`,
      [resource, thread, seq, before + 1, after],
    );
    const list = rows.map(toMessage).sort((a, b) => a.seq - b.seq);
    return list.some((m) => m.seq === seq) ? list : [];
  }

  async searchText(resource: string, terms: readonly string[], options: MemorySearchOptions): Promise<MemoryHit[]> {
    checkMemoryId(resource, 'resource');
    const words = terms.map((t) => t.replace(/[^\p{L}\p{N}]/gu, '')).filter((t) => t !== '');
    if (words.length === 0) return [];
    // Per word, its newest matches (the GIN index and (resource, seq) stop there), ranked together
    // (no join back to the table, which the planner would make a scan of the resource's rows; `IS TRUE`
    // keeps it on the (resource, seq) index walked newest first, not a GIN scan of every match):
    // recall does not grow with history, and a rare word still finds its old message.
    const { rows } = await this.#query<Row & { score: number }>(
      'searching memory',
      `SELECT ${COLUMNS}, score FROM (
         SELECT DISTINCT ON (c.thread, c.seq) c.*, ts_rank(c.tsv, to_tsquery('english', $2)) AS score
         FROM unnest($5::text[]) AS w(word), LATERAL (
           SELECT ${COLUMNS}, tsv FROM ${this.#s}.skein_memory_messages
           WHERE resource = $1 AND thread <> $3 AND (tsv @@ to_tsquery('english', w.word)) IS TRUE
           ORDER BY seq DESC LIMIT ${CANDIDATES}) c) r
       ORDER BY score DESC, seq DESC LIMIT $4`,
      [resource, words.join(' | '), options.excludeThread ?? '', options.limit, words],
    );
    return rows.map((r) => ({ message: toMessage(r), score: Number(r.score) }));
  }

  async searchVector(resource: string, vector: readonly number[], options: MemorySearchOptions): Promise<MemoryHit[]> {
    checkMemoryId(resource, 'resource');
    const { pgvector } = await this.#open();
    const similarity = pgvector
      ? '1 - (embedding::vector <=> $2::real[]::vector)'
      : `${this.#s}.skein_cosine(embedding, $2::real[])`;
    const { rows } = await this.#query<Row & { score: number }>(
      'searching memory',
      `SELECT ${COLUMNS}, ${similarity} AS score FROM ${this.#s}.skein_memory_messages
       WHERE resource = $1 AND thread <> $3 AND cardinality(embedding) = $4 ORDER BY score DESC LIMIT $5`,
      [resource, vector, options.excludeThread ?? '', vector.length, options.limit],
    );
    return rows.map((r) => ({ message: toMessage(r), score: Number(r.score) }));
  }

  async listResources(): Promise<string[]> {
    const { rows } = await this.#query<{ resource: string }>(
      'reading memory',
      `SELECT resource FROM ${this.#s}.skein_memory_docs UNION SELECT resource FROM ${this.#s}.skein_memory_messages ORDER BY resource`,
      [],
    );
    return rows.map((r) => r.resource);
  }

  async forget(resource: string): Promise<void> {
    checkMemoryId(resource, 'resource');
    await this.#query(
      'erasing memory',
      `WITH d AS (DELETE FROM ${this.#s}.skein_memory_docs WHERE resource = $1)
       DELETE FROM ${this.#s}.skein_memory_messages WHERE resource = $1`,
      [resource],
    );
  }

  async close(): Promise<void> {
    const ready = this.#ready;
    this.#ready = undefined;
    if (!ready || this.#options.pool) return;
    const { pool } = await ready.catch(() => ({ pool: undefined }));
    await pool?.end();
  }
}
