import type { PoolClient } from 'pg';
import { checkSchema, quoteIdent } from './schema.js';

/**
 * The memory tables in schema `s` (quoted), beside the sessions': documents (compare-and-set by
 * version), messages with a generated `tsvector` (GIN index) for full-text search and their
 * embedding as a `real[]` (the cosine is computed in SQL; with pgvector installed, by its operator).
 */
function memoryDdl(s: string): string {
  return `
CREATE TABLE IF NOT EXISTS ${s}.skein_memory_docs (
  resource text NOT NULL, key text NOT NULL, version bigint NOT NULL, doc text NOT NULL, updated_at text NOT NULL,
  PRIMARY KEY (resource, key));
CREATE TABLE IF NOT EXISTS ${s}.skein_memory_messages (
  resource text NOT NULL, thread text NOT NULL, seq bigint NOT NULL, role text NOT NULL, text text NOT NULL,
  at text NOT NULL, embedding real[],
  tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
  PRIMARY KEY (resource, thread, seq));
CREATE INDEX IF NOT EXISTS skein_memory_messages_tsv ON ${s}.skein_memory_messages USING gin (tsv);
CREATE INDEX IF NOT EXISTS skein_memory_messages_recent ON ${s}.skein_memory_messages (resource, seq);
CREATE OR REPLACE FUNCTION ${s}.skein_cosine(a real[], b real[]) RETURNS double precision
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN sqrt(sum(x * x)) = 0 OR sqrt(sum(y * y)) = 0 THEN 0
    ELSE sum(x * y) / (sqrt(sum(x * x)) * sqrt(sum(y * y))) END
  FROM unnest(a, b) AS t(x, y) $$;
`;
}

/**
 * Makes the session tables (when the schema has none) and the memory tables, in one transaction under
 * the sessions' advisory lock; returns whether pgvector is installed in the database.
 */
export async function ensureMemorySchema(client: PoolClient, schema: string, store: string): Promise<boolean> {
  await client.query('BEGIN');
  try {
    await checkSchema(client, schema, store);
    await client.query(memoryDdl(quoteIdent(schema)));
    const vector = await client.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
    await client.query('COMMIT');
    return (vector.rowCount ?? 0) > 0;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
