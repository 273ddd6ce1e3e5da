import {
  checkContiguous,
  checkIndex,
  checkSessionId,
  checkWrite,
  type JsonObject,
  type ListMessagesOptions,
  type NodeTransition,
  type Session,
  type SessionAgent,
  type SessionMessage,
  type SessionMultiAgent,
  type SessionRepository,
  type SessionWrite,
} from '@skein/core';
import { records } from './documents.js';
import type { Pool } from 'pg';
import { PgLeaseBook } from './lease.js';
import { resolvePostgresOptions, type PostgresSessionRepositoryOptions } from './options.js';
import { PgRunner } from './runner.js';
import { PgSessionClaims } from './session-claims.js';
import { quoteIdent } from './schema.js';
import { PgWrites } from './writes.js';

type DocRow = { doc: unknown };

/**
 * Sessions in PostgreSQL (node-postgres, a pool): the store for many machines. Each write, and each
 * `writeBatch` (an orchestrator's whole step), is one transaction whose COMMIT is its commit point.
 * One writer per session: a lease row with a fencing generation, locked and checked inside every
 * write transaction. Transient faults are retried, and a retried write is stored exactly once.
 * @example
 * const repository = new PostgresSessionRepository({ connectionString: process.env.DATABASE_URL });
 * const agent = new Agent({ model, sessionManager: new RepositorySessionManager({ sessionId: 'user-1', repository }) });
 */
export class PostgresSessionRepository implements SessionRepository {
  /** `postgres://user@host:port/database` (no password): how errors name this store. */
  readonly store: string;
  readonly #runner: PgRunner;
  readonly #leases: PgLeaseBook;
  readonly #writes: PgWrites;
  readonly #claims: PgSessionClaims;
  readonly #t: (name: string) => string;

  constructor(options: PostgresSessionRepositoryOptions) {
    const resolved = resolvePostgresOptions(options, 'PostgresSessionRepository');
    this.store = resolved.store;
    const schema = quoteIdent(resolved.schema);
    this.#t = (name) => `${schema}.${name}`;
    this.#runner = new PgRunner(resolved);
    this.#leases = new PgLeaseBook(this.#t('skein_leases'), this.store, resolved.leaseTtlMs, resolved.takeover);
    this.#writes = new PgWrites(this.#t, this.store);
    this.#claims = new PgSessionClaims(this.#runner, this.#leases);
  }

  /** The pool in use (made from the connection string at first use, or yours). */
  pool(): Promise<Pool> {
    return this.#runner.pool();
  }

  async #rows<T>(doing: string, sql: string, params: unknown[]): Promise<T[]> {
    return this.#runner.read(doing, async (pool) => (await pool.query(sql, params)).rows as T[]);
  }

  async #one(doing: string, sql: string, params: unknown[]): Promise<unknown> {
    return (await this.#rows<DocRow>(doing, sql, params))[0]?.doc;
  }

  #where(sessionId: string, what: string): string {
    return `${this.store} (session ${sessionId}, ${what})`;
  }

  beginView(sessionId: string): Promise<void> {
    return this.#claims.beginView(sessionId);
  }

  release(sessionId: string): Promise<void> {
    return this.#claims.release(sessionId);
  }

  /**
   * Resolves `true` once no other live writer holds `sessionId`: at once, when its holder gives the
   * lease up (PostgreSQL `NOTIFY`), or when the holder is found gone; `false` after `timeoutMs`.
   */
  waitForRelease(sessionId: string, timeoutMs: number): Promise<boolean> {
    return this.#claims.waitForRelease(sessionId, timeoutMs);
  }

  /** Gives up this writer's session leases, then lets go of the pool (one made from a connection string ends when its last user closes; yours is left open). */
  async close(): Promise<void> {
    await this.#claims.releaseAll();
    await this.#runner.end();
  }

  async createSession(session: Session): Promise<Session> {
    checkSessionId(session.session_id, 'session id');
    const doing = `creating session ${session.session_id}`;
    await this.#runner.write(session.session_id, this.#leases, doing, (c) => this.#writes.createSession(c, session));
    return structuredClone(session);
  }

  async readSession(sessionId: string): Promise<Session | undefined> {
    checkSessionId(sessionId, 'session id');
    const doc = await this.#one(
      'reading a session',
      `SELECT doc FROM ${this.#t('skein_sessions')} WHERE session_id = $1`,
      [sessionId],
    );
    return doc === undefined ? undefined : records.session(doc, this.#where(sessionId, 'its session record'));
  }

  async deleteSession(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    await this.#runner.write(sessionId, this.#leases, `deleting session ${sessionId}`, async (c) => {
      await c.query(`DELETE FROM ${this.#t('skein_sessions')} WHERE session_id = $1`, [sessionId]);
    });
    await this.release(sessionId);
  }

  createAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'createAgent', agent }]);
  }

  async readAgent(sessionId: string, agentId: string): Promise<SessionAgent | undefined> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(agentId, 'agent id');
    const doc = await this.#one(
      'reading an agent',
      `SELECT doc FROM ${this.#t('skein_agents')} WHERE session_id = $1 AND agent_id = $2`,
      [sessionId, agentId],
    );
    return doc === undefined ? undefined : records.agent(doc, this.#where(sessionId, `agent ${agentId}`));
  }

  updateAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'updateAgent', agent }]);
  }

  createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'createMessage', agentId, message }]);
  }

  async readMessage(sessionId: string, agentId: string, messageId: number): Promise<SessionMessage | undefined> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(agentId, 'agent id');
    const id = checkIndex(messageId, 'message id');
    const doc = await this.#one(
      'reading a message',
      `SELECT doc FROM ${this.#t('skein_messages')} WHERE session_id = $1 AND agent_id = $2 AND message_id = $3`,
      [sessionId, agentId, id],
    );
    return doc === undefined
      ? undefined
      : records.message(doc, this.#where(sessionId, `agent ${agentId}, message ${id}`), id);
  }

  updateMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'updateMessage', agentId, message }]);
  }

  async listMessages(sessionId: string, agentId: string, options: ListMessagesOptions = {}): Promise<SessionMessage[]> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(agentId, 'agent id');
    const offset = checkIndex(options.offset ?? 0, 'offset');
    const limit = options.limit === undefined ? null : checkIndex(options.limit, 'limit');
    const rows = await this.#rows<{ message_id: number; doc: unknown }>(
      'reading messages',
      `SELECT message_id::float8 AS message_id, doc FROM ${this.#t('skein_messages')} WHERE session_id = $1 AND agent_id = $2 AND message_id >= $3 ORDER BY message_id LIMIT $4`,
      [sessionId, agentId, offset, limit],
    );
    const name = (n: number) => `message ${n} of agent ${agentId} (session ${sessionId})`;
    checkContiguous(
      rows.map((r) => r.message_id),
      offset,
      name,
      this.store,
    );
    return rows.map((row) => records.message(row.doc, this.#where(sessionId, name(row.message_id)), row.message_id));
  }

  deleteMessages(sessionId: string, agentId: string, fromMessageId: number): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'deleteMessages', agentId, fromMessageId }]);
  }

  createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'createMultiAgent', multiAgent }]);
  }

  async readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(multiAgentId, 'multi-agent id');
    const doc = await this.#one(
      'reading an orchestrator',
      `SELECT doc FROM ${this.#t('skein_multi_agents')} WHERE session_id = $1 AND multi_agent_id = $2`,
      [sessionId, multiAgentId],
    );
    return doc === undefined
      ? undefined
      : records.multiAgent(doc, this.#where(sessionId, `orchestrator ${multiAgentId}`));
  }

  updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'updateMultiAgent', multiAgent }]);
  }

  async deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(multiAgentId, 'multi-agent id');
    await this.#runner.write(sessionId, this.#leases, `deleting orchestrator ${multiAgentId}`, async (c) => {
      await c.query(`DELETE FROM ${this.#t('skein_multi_agents')} WHERE session_id = $1 AND multi_agent_id = $2`, [
        sessionId,
        multiAgentId,
      ]);
    });
  }

  putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'putNodeEntry', multiAgentId, nodeId, entry }]);
  }

  async readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(multiAgentId, 'multi-agent id');
    const rows = await this.#rows<{ node_id: string; doc: unknown }>(
      'reading node entries',
      `SELECT node_id, doc FROM ${this.#t('skein_nodes')} WHERE session_id = $1 AND multi_agent_id = $2 ORDER BY node_id`,
      [sessionId, multiAgentId],
    );
    const out: Record<string, JsonObject> = {};
    for (const row of rows)
      out[row.node_id] = records.nodeEntry(
        row.doc,
        this.#where(sessionId, `orchestrator ${multiAgentId}, node ${row.node_id}`),
      );
    return out;
  }

  appendTransitions(sessionId: string, multiAgentId: string, transitions: readonly NodeTransition[]): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'appendTransitions', multiAgentId, transitions }]);
  }

  async readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(multiAgentId, 'multi-agent id');
    const rows = await this.#rows<{ seq: number; doc: unknown }>(
      'reading transitions',
      `SELECT seq::float8 AS seq, doc FROM ${this.#t('skein_transitions')} WHERE session_id = $1 AND multi_agent_id = $2 ORDER BY seq`,
      [sessionId, multiAgentId],
    );
    const name = (n: number) => `transition ${n} of orchestrator ${multiAgentId} (session ${sessionId})`;
    checkContiguous(
      rows.map((r) => r.seq),
      0,
      name,
      this.store,
    );
    return rows.map((row) => records.transition(row.doc, this.#where(sessionId, name(row.seq)), row.seq));
  }

  /** Applies `writes` in order in one transaction (all or none), with the checks of the single calls. */
  async writeBatch(sessionId: string, writes: readonly SessionWrite[]): Promise<void> {
    checkSessionId(sessionId, 'session id');
    for (const write of writes) checkWrite(write);
    await this.#runner.write(
      sessionId,
      this.#leases,
      `writing session ${sessionId}`,
      async (c) => {
        for (const write of writes) await this.#writes.apply(c, sessionId, write);
      },
      writes,
    );
  }

  /** The ids of the stored sessions, in order (for tools such as `skein sessions`). */
  async listSessions(): Promise<string[]> {
    const rows = await this.#rows<{ session_id: string }>(
      'listing sessions',
      `SELECT session_id FROM ${this.#t('skein_sessions')} ORDER BY session_id`,
      [],
    );
    return rows.map((r) => r.session_id);
  }

  /** The ids of a session's agents (`'agents'`) or orchestrators (`'multiAgents'`), in order. */
  async listIds(sessionId: string, kind: 'agents' | 'multiAgents'): Promise<string[]> {
    checkSessionId(sessionId, 'session id');
    const [table, column] = kind === 'agents' ? ['skein_agents', 'agent_id'] : ['skein_multi_agents', 'multi_agent_id'];
    const rows = await this.#rows<{ id: string }>(
      `listing ${kind === 'agents' ? 'agents' : 'orchestrators'}`,
      `SELECT ${column} AS id FROM ${this.#t(table)} WHERE session_id = $1 ORDER BY ${column}`,
      [sessionId],
    );
    return rows.map((r) => r.id);
  }
}
