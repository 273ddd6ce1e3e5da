import { SessionCorruptError } from '../../errors/session-errors.js';
import type { JsonObject } from '../../types/json.js';
import type { AgentRecords, OrchestratorRecords } from '../session-repository.js';
import type {
  ListMessagesOptions,
  NodeTransition,
  Session,
  SessionAgent,
  SessionMessage,
  SessionMultiAgent,
} from '../session-types.js';
import { checkContiguous, storedRecordParsers } from '../stored-records.js';
import type { SqlDialect } from './sql-dialect.js';
import { sqlStatements, type SqlStatements } from './sql-statements.js';
import { sqlSteps, type SqlStep, type SqlWrite } from './sql-writes.js';

/**
 * What a SQL store does with statements: reads, and the writes of one session in one transaction that
 * holds the session's lease (`steps`: each write's statements, in order; `writes` for a store that
 * sends them in another form). `doing` says what, for errors.
 */
export interface SqlDriver {
  read<R>(sql: string, params: readonly unknown[], doing: string): Promise<R[]>;
  write(sessionId: string, batch: { writes: readonly SqlWrite[]; steps: SqlStep[] }, doing: string): Promise<void>;
}

/** Rows read by core's parsers: a hand-edited row is a `SessionCorruptError` naming it. */
const records = storedRecordParsers(
  (location, problem) =>
    new SessionCorruptError(`Session data at ${location} ${problem}; fix or delete that row (nothing was changed).`, {
      location,
    }),
  'row',
);

type DocRow = { doc: unknown };

/**
 * The records of a SQL store (SQLite, PostgreSQL): one row per record, whose `doc` holds the record's
 * JSON with Strands Agents' field names, in the tables `sqlStatements` names. Reads go to the driver;
 * every write is one transaction of the driver's.
 */
export class SqlRecords implements AgentRecords, OrchestratorRecords {
  /** The statements, in the store's dialect. */
  readonly statements: SqlStatements;
  readonly #dialect: SqlDialect;
  readonly #driver: SqlDriver;
  readonly #store: string;

  constructor(dialect: SqlDialect, driver: SqlDriver, store: string) {
    this.statements = sqlStatements(dialect);
    this.#dialect = dialect;
    this.#driver = driver;
    this.#store = store;
  }

  #where(sessionId: string, what: string): string {
    return `${this.#store} (session ${sessionId}, ${what})`;
  }

  async #doc(doing: string, sql: string, params: unknown[]): Promise<unknown> {
    return (await this.#driver.read<DocRow>(sql, params, doing))[0]?.doc;
  }

  async createSession(session: Session): Promise<Session> {
    const id = session.session_id;
    await this.write(id, [{ op: 'createSession', session }], `creating session ${id}`);
    return structuredClone(session);
  }

  async readSession(sessionId: string): Promise<Session | undefined> {
    const doc = await this.#doc('reading a session', this.statements.readSession, [sessionId]);
    return doc === undefined ? undefined : records.session(doc, this.#where(sessionId, 'its session record'));
  }

  deleteSession(sessionId: string): Promise<void> {
    return this.write(sessionId, [{ op: 'deleteSession' }], `deleting session ${sessionId}`);
  }

  createAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    return this.#write(sessionId, { op: 'createAgent', agent });
  }

  async readAgent(sessionId: string, agentId: string): Promise<SessionAgent | undefined> {
    const doc = await this.#doc('reading an agent', this.statements.readAgent, [sessionId, agentId]);
    return doc === undefined ? undefined : records.agent(doc, this.#where(sessionId, `agent ${agentId}`));
  }

  updateAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    return this.#write(sessionId, { op: 'updateAgent', agent });
  }

  createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    return this.#write(sessionId, { op: 'createMessage', agentId, message });
  }

  async readMessage(sessionId: string, agentId: string, messageId: number): Promise<SessionMessage | undefined> {
    const doc = await this.#doc('reading a message', this.statements.readMessage, [sessionId, agentId, messageId]);
    const where = this.#where(sessionId, `agent ${agentId}, message ${messageId}`);
    return doc === undefined ? undefined : records.message(doc, where, messageId);
  }

  updateMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    return this.#write(sessionId, { op: 'updateMessage', agentId, message });
  }

  async listMessages(sessionId: string, agentId: string, options: ListMessagesOptions = {}): Promise<SessionMessage[]> {
    const offset = options.offset ?? 0;
    const params = [sessionId, agentId, offset, options.limit ?? this.#dialect.noLimit];
    const rows = await this.#driver.read<{ message_id: number; doc: unknown }>(
      this.statements.listMessages,
      params,
      'reading messages',
    );
    const name = (n: number) => `message ${n} of agent ${agentId} (session ${sessionId})`;
    checkContiguous(
      rows.map((r) => r.message_id),
      offset,
      name,
      this.#store,
    );
    return rows.map((row) => records.message(row.doc, this.#where(sessionId, name(row.message_id)), row.message_id));
  }

  deleteMessages(sessionId: string, agentId: string, fromMessageId: number): Promise<void> {
    return this.#write(sessionId, { op: 'deleteMessages', agentId, fromMessageId });
  }

  createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    return this.#write(sessionId, { op: 'createMultiAgent', multiAgent });
  }

  async readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined> {
    const doc = await this.#doc('reading an orchestrator', this.statements.readMultiAgent, [sessionId, multiAgentId]);
    const where = this.#where(sessionId, `orchestrator ${multiAgentId}`);
    return doc === undefined ? undefined : records.multiAgent(doc, where);
  }

  updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    return this.#write(sessionId, { op: 'updateMultiAgent', multiAgent });
  }

  deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void> {
    const doing = `deleting orchestrator ${multiAgentId}`;
    return this.write(sessionId, [{ op: 'deleteMultiAgent', multiAgentId }], doing);
  }

  putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void> {
    return this.#write(sessionId, { op: 'putNodeEntry', multiAgentId, nodeId, entry });
  }

  async readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>> {
    const rows = await this.#driver.read<{ node_id: string; doc: unknown }>(
      this.statements.readNodes,
      [sessionId, multiAgentId],
      'reading node entries',
    );
    const out: Record<string, JsonObject> = {};
    for (const row of rows) {
      const where = this.#where(sessionId, `orchestrator ${multiAgentId}, node ${row.node_id}`);
      out[row.node_id] = records.nodeEntry(row.doc, where);
    }
    return out;
  }

  appendTransitions(sessionId: string, multiAgentId: string, transitions: readonly NodeTransition[]): Promise<void> {
    return this.#write(sessionId, { op: 'appendTransitions', multiAgentId, transitions });
  }

  async readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]> {
    const rows = await this.#driver.read<{ seq: number; doc: unknown }>(
      this.statements.readTransitions,
      [sessionId, multiAgentId],
      'reading transitions',
    );
    const name = (n: number) => `transition ${n} of orchestrator ${multiAgentId} (session ${sessionId})`;
    checkContiguous(
      rows.map((r) => r.seq),
      0,
      name,
      this.#store,
    );
    return rows.map((row) => records.transition(row.doc, this.#where(sessionId, name(row.seq)), row.seq));
  }

  /** The ids of the stored sessions, in order. */
  async listSessions(): Promise<string[]> {
    const rows = await this.#driver.read<{ session_id: string }>(this.statements.listSessions, [], 'listing sessions');
    return rows.map((r) => r.session_id);
  }

  /** The ids of a session's agents or orchestrators, in order. */
  async listIds(sessionId: string, kind: 'agents' | 'multiAgents'): Promise<string[]> {
    const agents = kind === 'agents';
    const sql = agents ? this.statements.listAgents : this.statements.listMultiAgents;
    const rows = await this.#driver.read<{ id: string }>(
      sql,
      [sessionId],
      `listing ${agents ? 'agents' : 'orchestrators'}`,
    );
    return rows.map((r) => r.id);
  }

  /** Applies `writes` to `sessionId` in one transaction (all or none), with the checks of the single calls. */
  write(sessionId: string, writes: readonly SqlWrite[], doing = `writing session ${sessionId}`): Promise<void> {
    const steps = writes.flatMap((w) => sqlSteps(this.statements, this.#dialect, sessionId, w));
    return this.#driver.write(sessionId, { writes, steps }, doing);
  }

  #write(sessionId: string, write: SqlWrite): Promise<void> {
    return this.write(sessionId, [write]);
  }
}
