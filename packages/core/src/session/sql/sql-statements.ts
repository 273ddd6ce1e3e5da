import type { SqlDialect } from './sql-dialect.js';

/** The tables of a session's records, children after their parents. */
const SESSION_TABLES = [
  'skein_sessions',
  'skein_agents',
  'skein_messages',
  'skein_multi_agents',
  'skein_nodes',
  'skein_transitions',
];

/** The tables of an orchestrator's records, its state document's first. */
const ORCHESTRATOR_TABLES = ['skein_multi_agents', 'skein_nodes', 'skein_transitions'];

/** The statements of the SQL stores' records (each record is a row whose `doc` holds its JSON), in one dialect. */
export interface SqlStatements {
  readSession: string;
  insertSession: string;
  readAgent: string;
  insertAgent: string;
  updateAgent: string;
  readMessage: string;
  insertMessage: string;
  updateMessage: string;
  listMessages: string;
  deleteMessages: string;
  readMultiAgent: string;
  insertMultiAgent: string;
  updateMultiAgent: string;
  readNodes: string;
  putNode: string;
  /** Inserts a transition only when it carries the next number of its orchestrator. */
  insertTransition: string;
  readTransitions: string;
  /** Parent checks (a row when the parent exists), for a dialect without foreign keys. */
  hasSession: string;
  hasAgent: string;
  hasMultiAgent: string;
  /** The deletes of a session, and of an orchestrator (one statement each where foreign keys cascade). */
  deleteSession: string[];
  deleteMultiAgent: string[];
  listSessions: string;
  listAgents: string;
  listMultiAgents: string;
}

/** The statements in dialect `d` (made once per store). Parameters: the session id first, then the record's keys, then its `doc`. */
export function sqlStatements(d: SqlDialect): SqlStatements {
  const t = d.table;
  const p = d.param;
  const agent = `session_id = ${p(1)} AND agent_id = ${p(2)}`;
  const orchestrator = `session_id = ${p(1)} AND multi_agent_id = ${p(2)}`;
  const insert = (table: string, columns: string[]): string =>
    `INSERT INTO ${t(table)} (${columns.join(', ')}) VALUES (${columns.map((_, i) => p(i + 1)).join(', ')}) ON CONFLICT DO NOTHING`;
  // With foreign keys, deleting the parent row deletes its children.
  const deletes = (tables: string[], where: string): string[] =>
    (d.foreignKeys ? tables.slice(0, 1) : tables).map((table) => `DELETE FROM ${t(table)} WHERE ${where}`);
  return {
    readSession: `SELECT doc FROM ${t('skein_sessions')} WHERE session_id = ${p(1)}`,
    insertSession: insert('skein_sessions', ['session_id', 'doc']),
    readAgent: `SELECT doc FROM ${t('skein_agents')} WHERE ${agent}`,
    insertAgent: insert('skein_agents', ['session_id', 'agent_id', 'doc']),
    updateAgent: `UPDATE ${t('skein_agents')} SET doc = ${p(3)} WHERE ${agent}`,
    readMessage: `SELECT doc FROM ${t('skein_messages')} WHERE ${agent} AND message_id = ${p(3)}`,
    insertMessage: insert('skein_messages', ['session_id', 'agent_id', 'message_id', 'doc']),
    updateMessage: `UPDATE ${t('skein_messages')} SET doc = ${p(4)} WHERE ${agent} AND message_id = ${p(3)}`,
    listMessages: `SELECT ${d.number('message_id')}, doc FROM ${t('skein_messages')} WHERE ${agent} AND message_id >= ${p(3)} ORDER BY message_id LIMIT ${p(4)}`,
    deleteMessages: `DELETE FROM ${t('skein_messages')} WHERE ${agent} AND message_id >= ${p(3)}`,
    readMultiAgent: `SELECT doc FROM ${t('skein_multi_agents')} WHERE ${orchestrator}`,
    insertMultiAgent: insert('skein_multi_agents', ['session_id', 'multi_agent_id', 'doc']),
    updateMultiAgent: `UPDATE ${t('skein_multi_agents')} SET doc = ${p(3)} WHERE ${orchestrator}`,
    readNodes: `SELECT node_id, doc FROM ${t('skein_nodes')} WHERE ${orchestrator} ORDER BY node_id`,
    putNode: `INSERT INTO ${t('skein_nodes')} (session_id, multi_agent_id, node_id, doc) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}) ON CONFLICT (session_id, multi_agent_id, node_id) DO UPDATE SET doc = excluded.doc`,
    insertTransition: `INSERT INTO ${t('skein_transitions')} (session_id, multi_agent_id, seq, doc) SELECT ${p(1, 'text')}, ${p(2, 'text')}, ${p(3, 'bigint')}, ${p(4, 'text')} WHERE ${p(3, 'bigint')} = (SELECT COALESCE(MAX(seq) + 1, 0) FROM ${t('skein_transitions')} WHERE ${orchestrator})`,
    readTransitions: `SELECT ${d.number('seq')}, doc FROM ${t('skein_transitions')} WHERE ${orchestrator} ORDER BY seq`,
    hasSession: `SELECT 1 AS found FROM ${t('skein_sessions')} WHERE session_id = ${p(1)}`,
    hasAgent: `SELECT 1 AS found FROM ${t('skein_agents')} WHERE ${agent}`,
    hasMultiAgent: `SELECT 1 AS found FROM ${t('skein_multi_agents')} WHERE ${orchestrator}`,
    deleteSession: deletes(SESSION_TABLES, `session_id = ${p(1)}`),
    deleteMultiAgent: deletes(ORCHESTRATOR_TABLES, orchestrator),
    listSessions: `SELECT session_id FROM ${t('skein_sessions')} ORDER BY session_id`,
    listAgents: `SELECT agent_id AS id FROM ${t('skein_agents')} WHERE session_id = ${p(1)} ORDER BY agent_id`,
    listMultiAgents: `SELECT multi_agent_id AS id FROM ${t('skein_multi_agents')} WHERE session_id = ${p(1)} ORDER BY multi_agent_id`,
  };
}
