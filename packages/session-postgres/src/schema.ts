import { SessionError } from '@skein/core';
import type { PoolClient } from 'pg';
import { stepFunctionSql } from './step.js';

/** The schema version this package writes; `skein_meta.schema_version` holds the version of a database. */
export const SCHEMA_VERSION = 1;
const STORE_MARK = 'skein-sessions';

/** The tables of schema version 1 in schema `s` (quoted). Records are rows whose `doc` holds their JSON. */
function v1(s: string): string {
  return `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE ${s}.skein_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE ${s}.skein_sessions (session_id text PRIMARY KEY, doc text NOT NULL);
CREATE TABLE ${s}.skein_agents (
  session_id text NOT NULL REFERENCES ${s}.skein_sessions ON DELETE CASCADE,
  agent_id text NOT NULL, doc text NOT NULL, PRIMARY KEY (session_id, agent_id));
CREATE TABLE ${s}.skein_messages (
  session_id text NOT NULL, agent_id text NOT NULL, message_id bigint NOT NULL, doc text NOT NULL,
  PRIMARY KEY (session_id, agent_id, message_id),
  FOREIGN KEY (session_id, agent_id) REFERENCES ${s}.skein_agents ON DELETE CASCADE);
CREATE TABLE ${s}.skein_multi_agents (
  session_id text NOT NULL REFERENCES ${s}.skein_sessions ON DELETE CASCADE,
  multi_agent_id text NOT NULL, doc text NOT NULL, PRIMARY KEY (session_id, multi_agent_id));
CREATE TABLE ${s}.skein_nodes (
  session_id text NOT NULL, multi_agent_id text NOT NULL, node_id text NOT NULL, doc text NOT NULL,
  PRIMARY KEY (session_id, multi_agent_id, node_id),
  FOREIGN KEY (session_id, multi_agent_id) REFERENCES ${s}.skein_multi_agents ON DELETE CASCADE);
CREATE TABLE ${s}.skein_transitions (
  session_id text NOT NULL, multi_agent_id text NOT NULL, seq bigint NOT NULL, doc text NOT NULL,
  PRIMARY KEY (session_id, multi_agent_id, seq),
  FOREIGN KEY (session_id, multi_agent_id) REFERENCES ${s}.skein_multi_agents ON DELETE CASCADE);
CREATE TABLE ${s}.skein_leases (
  session_id text PRIMARY KEY, generation bigint NOT NULL, owner text, pid integer, host text,
  expires_at bigint, last_batch text);
INSERT INTO ${s}.skein_meta (key, value) VALUES ('store', '${STORE_MARK}'), ('schema_version', '1');
`;
}

/** Migrations from version `n - 1` to `n`, by `n` (none yet: version 1 is the first). */
const MIGRATIONS: Record<number, (s: string) => string> = {};

/**
 * Checks the schema under an advisory lock (so concurrent first uses do not race): creates it when no
 * skein table exists, refuses skein-named tables without skein's mark and a newer schema version
 * (nothing written), and migrates an older one. Runs in the caller's open transaction.
 */
export async function checkSchema(client: PoolClient, schema: string, store: string): Promise<void> {
  const s = quoteIdent(schema);
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`skein-sessions-schema:${schema}`]);
  const found = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'skein\\_%'",
    [schema],
  );
  const names = found.rows.map((r) => r.table_name);
  if (names.length === 0) {
    await client.query(v1(s));
    return void (await client.query(stepFunctionSql(s)));
  }
  if (!names.includes('skein_meta'))
    throw new SessionError(
      `${store} has tables named like skein's (${names.join(', ')}) but no skein_meta, so they are not skein's session store; use another schema (the schema option) or database. Nothing was written.`,
      { location: store },
    );
  const meta = await client.query<{ key: string; value: string }>(`SELECT key, value FROM ${s}.skein_meta`);
  const get = (key: string) => meta.rows.find((r) => r.key === key)?.value;
  const version = Number(get('schema_version'));
  if (get('store') !== STORE_MARK || !Number.isInteger(version))
    throw new SessionError(
      `${store} has a skein_meta table that is not skein's session store's (store ${JSON.stringify(get('store'))}); use another schema or database. Nothing was written.`,
      { location: store },
    );
  if (version > SCHEMA_VERSION)
    throw new SessionError(
      `${store} was written by a newer @skein/session-postgres (schema version ${version}; this one reads up to ${SCHEMA_VERSION}); upgrade @skein/session-postgres. Nothing was written.`,
      { location: store },
    );
  // The write function belongs to version 1; create it where an earlier build made the tables without it.
  const fn = await client.query<{ f: string | null }>('SELECT to_regproc($1)::text AS f', [`${s}.skein_step`]);
  if (fn.rows[0]?.f === null) await client.query(stepFunctionSql(s));
  for (let v = version + 1; v <= SCHEMA_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (!step) throw new SessionError(`${store}: no migration to schema version ${v}.`, { location: store });
    await client.query(step(s));
    await client.query(`UPDATE ${s}.skein_meta SET value = $1 WHERE key = 'schema_version'`, [String(v)]);
  }
}

/** A quoted SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
