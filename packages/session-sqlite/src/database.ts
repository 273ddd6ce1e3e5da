import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { checkSchema } from './schema.js';
import { toSessionError } from './errors.js';

/** How the database is opened. */
export interface OpenOptions {
  path: string;
  /** `sqlite:<absolute path>`, as errors name the store. */
  store: string;
  readonly: boolean;
  synchronous: 'FULL' | 'NORMAL';
  busyTimeoutMs: number;
}

type StatementName =
  | 'readSession'
  | 'insertSession'
  | 'readAgent'
  | 'insertAgent'
  | 'updateAgent'
  | 'readMessage'
  | 'insertMessage'
  | 'updateMessage'
  | 'listMessages'
  | 'deleteMessages'
  | 'readMultiAgent'
  | 'insertMultiAgent'
  | 'updateMultiAgent'
  | 'deleteMultiAgent'
  | 'deleteNodes'
  | 'deleteTransitions'
  | 'putNode'
  | 'readNodes'
  | 'nextSeq'
  | 'insertTransition'
  | 'readTransitions'
  | 'readLease'
  | 'writeLease'
  | 'listSessions'
  | 'listAgents'
  | 'listMultiAgents';

/** The prepared statements of the store (prepared once per connection). */
export type Statements = ReturnType<typeof prepare>;

function prepare(
  db: BetterSqlite3.Database,
): Record<StatementName, BetterSqlite3.Statement> & { deleteSession: BetterSqlite3.Statement[] } {
  const s = (sql: string) => db.prepare(sql);
  return {
    readSession: s('SELECT doc FROM skein_sessions WHERE session_id = ?'),
    insertSession: s('INSERT INTO skein_sessions (session_id, doc) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    readAgent: s('SELECT doc FROM skein_agents WHERE session_id = ? AND agent_id = ?'),
    insertAgent: s('INSERT INTO skein_agents (session_id, agent_id, doc) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
    updateAgent: s('UPDATE skein_agents SET doc = ? WHERE session_id = ? AND agent_id = ?'),
    readMessage: s('SELECT doc FROM skein_messages WHERE session_id = ? AND agent_id = ? AND message_id = ?'),
    insertMessage: s(
      'INSERT INTO skein_messages (session_id, agent_id, message_id, doc) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    updateMessage: s('UPDATE skein_messages SET doc = ? WHERE session_id = ? AND agent_id = ? AND message_id = ?'),
    listMessages: s(
      'SELECT message_id, doc FROM skein_messages WHERE session_id = ? AND agent_id = ? AND message_id >= ? ORDER BY message_id LIMIT ?',
    ),
    deleteMessages: s('DELETE FROM skein_messages WHERE session_id = ? AND agent_id = ? AND message_id >= ?'),
    readMultiAgent: s('SELECT doc FROM skein_multi_agents WHERE session_id = ? AND multi_agent_id = ?'),
    insertMultiAgent: s(
      'INSERT INTO skein_multi_agents (session_id, multi_agent_id, doc) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    updateMultiAgent: s('UPDATE skein_multi_agents SET doc = ? WHERE session_id = ? AND multi_agent_id = ?'),
    deleteMultiAgent: s('DELETE FROM skein_multi_agents WHERE session_id = ? AND multi_agent_id = ?'),
    deleteNodes: s('DELETE FROM skein_nodes WHERE session_id = ? AND multi_agent_id = ?'),
    deleteTransitions: s('DELETE FROM skein_transitions WHERE session_id = ? AND multi_agent_id = ?'),
    putNode: s(
      'INSERT INTO skein_nodes (session_id, multi_agent_id, node_id, doc) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET doc = excluded.doc',
    ),
    readNodes: s('SELECT node_id, doc FROM skein_nodes WHERE session_id = ? AND multi_agent_id = ? ORDER BY node_id'),
    nextSeq: s(
      'SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM skein_transitions WHERE session_id = ? AND multi_agent_id = ?',
    ),
    insertTransition: s(
      'INSERT INTO skein_transitions (session_id, multi_agent_id, seq, doc) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    readTransitions: s(
      'SELECT seq, doc FROM skein_transitions WHERE session_id = ? AND multi_agent_id = ? ORDER BY seq',
    ),
    readLease: s('SELECT generation, owner, pid, host, expires_at FROM skein_leases WHERE session_id = ?'),
    writeLease: s(
      'INSERT INTO skein_leases (session_id, generation, owner, pid, host, expires_at) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT DO UPDATE SET generation = excluded.generation, owner = excluded.owner, pid = excluded.pid, host = excluded.host, expires_at = excluded.expires_at',
    ),
    deleteSession: [
      'skein_sessions',
      'skein_agents',
      'skein_messages',
      'skein_multi_agents',
      'skein_nodes',
      'skein_transitions',
    ].map((table) => s(`DELETE FROM ${table} WHERE session_id = ?`)),
    listSessions: s('SELECT session_id FROM skein_sessions ORDER BY session_id'),
    listAgents: s('SELECT agent_id AS id FROM skein_agents WHERE session_id = ? ORDER BY agent_id'),
    listMultiAgents: s(
      'SELECT multi_agent_id AS id FROM skein_multi_agents WHERE session_id = ? ORDER BY multi_agent_id',
    ),
  };
}

type DatabaseConstructor = new (path: string, options: BetterSqlite3.Options) => BetterSqlite3.Database;

/** better-sqlite3, loaded at the first open (not at import). */
function loadDriver(): DatabaseConstructor {
  return createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
}

/**
 * Opens the database: checks it is skein's (or empty) before anything is written, creates or
 * migrates the schema, then sets WAL mode and the durability level.
 */
export function openDatabase(options: OpenOptions): { db: BetterSqlite3.Database; statements: Statements } {
  let db: BetterSqlite3.Database | undefined;
  try {
    const Database = loadDriver();
    db = new Database(options.path, {
      readonly: options.readonly,
      fileMustExist: options.readonly,
      timeout: options.busyTimeoutMs,
    });
    checkSchema(db, options.store, options.readonly);
    if (!options.readonly) db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous}`);
    return { db, statements: prepare(db) };
  } catch (error) {
    db?.close();
    throw toSessionError(error, options.store, 'opening it', options.busyTimeoutMs);
  }
}
