import type BetterSqlite3 from 'better-sqlite3';
import {
  checkContiguous,
  checkIndex,
  checkSessionId,
  checkWrite,
  LeaseHeartbeat,
  recordText,
  SessionConflictError,
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
import { GroupCommit } from './group-commit.js';
import { LeaseBook, type LeaseTable } from './lease-book.js';
import { SqliteConnection } from './connection.js';
import type { Statements } from './database.js';
import { resolveSqliteOptions, type SqliteSessionRepositoryOptions } from './options.js';
import { SqliteWrites } from './writes.js';

type Row = { doc: unknown } | undefined;

/**
 * Sessions in one SQLite database file (better-sqlite3, WAL mode), any number of them. Each write,
 * and each `writeBatch` (an orchestrator's whole step), is one transaction whose COMMIT is its
 * commit point; writes of different sessions ready in the same turn of the event loop share one
 * transaction (group commit). One writer per session across processes: a lease row, checked inside
 * every write transaction and renewed by a heartbeat while held. Records keep Strands Agents' field names.
 * @example
 * const repository = new SqliteSessionRepository({ path: './desk.db' });
 * const agent = new Agent({ model, sessionManager: new RepositorySessionManager({ sessionId: 'user-1', repository }) });
 */
export class SqliteSessionRepository implements SessionRepository {
  /** `sqlite:<absolute path>`: how errors name this store. */
  readonly store: string;
  readonly #conn: SqliteConnection;
  readonly #leases: LeaseBook;
  readonly #group: GroupCommit<Map<string, number | null>>;
  readonly #writes: SqliteWrites;
  readonly #leaseTable: LeaseTable;
  readonly #heartbeat: LeaseHeartbeat;

  constructor(options: SqliteSessionRepositoryOptions) {
    const resolved = resolveSqliteOptions(options, 'SqliteSessionRepository');
    this.store = resolved.store;
    this.#conn = new SqliteConnection(resolved);
    this.#leases = new LeaseBook(this.store, resolved.leaseTtlMs, resolved.takeover);
    const db = () => this.#conn.get().db;
    this.#group = new GroupCommit(db, this.#leases, (e) => this.#conn.fail(e, 'writing'), resolved.groupCommit);
    this.#writes = new SqliteWrites(() => this.#conn.get().st, this.store);
    this.#leaseTable = this.#conn.leases;
    this.#heartbeat = new LeaseHeartbeat(
      resolved.leaseTtlMs,
      () => this.#group.submit(() => this.#leases.renewHeld(this.#leaseTable)),
      () => this.#leases.heldSessions().length > 0 && this.#conn.isOpen,
    );
  }

  /** Write transactions committed so far and the writes (single calls, batches) they carried: group commit at work. */
  get stats(): { readonly transactions: number; readonly units: number } {
    return { ...this.#group.stats };
  }

  #open(): { db: BetterSqlite3.Database; st: Statements } {
    return this.#conn.get();
  }

  #read<T>(read: (st: Statements) => T): Promise<T> {
    return this.#conn.read(read);
  }

  /** Runs `apply` in a write transaction holding the session's lease (kept alive by the heartbeat from then on). */
  async #write(sessionId: string, apply: () => void): Promise<void> {
    await this.#group.submit(() => {
      this.#leases.ensure(this.#leaseTable, sessionId);
      apply();
    });
    this.#heartbeat.poke();
  }

  #where(sessionId: string, what: string): string {
    return `${this.store} (session ${sessionId}, ${what})`;
  }

  async beginView(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    const row = await this.#read(() => this.#leaseTable.read(sessionId));
    this.#leases.beginView(sessionId, row);
  }

  async release(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    if (!this.#leases.heldSessions().includes(sessionId)) return;
    await this.#group.submit(() => void this.#leases.release(this.#leaseTable, sessionId));
  }

  /** Gives up every session lease this repository holds, then closes the database (reopened if used again). */
  async close(): Promise<void> {
    const held = this.#leases.heldSessions();
    if (held.length > 0 && this.#conn.isOpen)
      await this.#group
        .submit(() => {
          for (const sessionId of held) this.#leases.release(this.#leaseTable, sessionId);
        })
        .catch(() => undefined);
    this.#heartbeat.stop();
    this.#conn.close();
  }

  async createSession(session: Session): Promise<Session> {
    checkSessionId(session.session_id, 'session id');
    await this.#write(session.session_id, () => {
      if (this.#open().st.insertSession.run(session.session_id, recordText(session)).changes === 0)
        throw new SessionConflictError(`Session ${session.session_id} already exists in ${this.store}.`, {
          location: this.store,
        });
    });
    return structuredClone(session);
  }

  async readSession(sessionId: string): Promise<Session | undefined> {
    checkSessionId(sessionId, 'session id');
    return this.#read((st) => {
      const row = st.readSession.get(sessionId) as Row;
      return row && records.session(row.doc, this.#where(sessionId, 'its session record'));
    });
  }

  async deleteSession(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    await this.#write(sessionId, () => {
      for (const statement of this.#open().st.deleteSession) statement.run(sessionId);
      this.#leases.release(this.#leaseTable, sessionId);
    });
  }

  async createAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'createAgent', agent }]);
  }

  async readAgent(sessionId: string, agentId: string): Promise<SessionAgent | undefined> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(agentId, 'agent id');
    return this.#read((st) => {
      const row = st.readAgent.get(sessionId, agentId) as Row;
      return row && records.agent(row.doc, this.#where(sessionId, `agent ${agentId}`));
    });
  }

  async updateAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'updateAgent', agent }]);
  }

  async createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'createMessage', agentId, message }]);
  }

  async readMessage(sessionId: string, agentId: string, messageId: number): Promise<SessionMessage | undefined> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(agentId, 'agent id');
    const id = checkIndex(messageId, 'message id');
    return this.#read((st) => {
      const row = st.readMessage.get(sessionId, agentId, id) as Row;
      return row && records.message(row.doc, this.#where(sessionId, `agent ${agentId}, message ${id}`), id);
    });
  }

  async updateMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'updateMessage', agentId, message }]);
  }

  async listMessages(sessionId: string, agentId: string, options: ListMessagesOptions = {}): Promise<SessionMessage[]> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(agentId, 'agent id');
    const offset = checkIndex(options.offset ?? 0, 'offset');
    const limit = options.limit === undefined ? -1 : checkIndex(options.limit, 'limit');
    return this.#read((st) => {
      const rows = st.listMessages.all(sessionId, agentId, offset, limit) as { message_id: number; doc: unknown }[];
      const name = (n: number) => `message ${n} of agent ${agentId} (session ${sessionId})`;
      checkContiguous(
        rows.map((r) => r.message_id),
        offset,
        name,
        this.store,
      );
      return rows.map((row) => records.message(row.doc, this.#where(sessionId, name(row.message_id)), row.message_id));
    });
  }

  async deleteMessages(sessionId: string, agentId: string, fromMessageId: number): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'deleteMessages', agentId, fromMessageId }]);
  }

  async createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'createMultiAgent', multiAgent }]);
  }

  async readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(multiAgentId, 'multi-agent id');
    return this.#read((st) => {
      const row = st.readMultiAgent.get(sessionId, multiAgentId) as Row;
      return row && records.multiAgent(row.doc, this.#where(sessionId, `orchestrator ${multiAgentId}`));
    });
  }

  async updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'updateMultiAgent', multiAgent }]);
  }

  async deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(multiAgentId, 'multi-agent id');
    await this.#write(sessionId, () => this.#writes.deleteMultiAgent(sessionId, multiAgentId));
  }

  async putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'putNodeEntry', multiAgentId, nodeId, entry }]);
  }

  async readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(multiAgentId, 'multi-agent id');
    return this.#read((st) => {
      const out: Record<string, JsonObject> = {};
      for (const row of st.readNodes.all(sessionId, multiAgentId) as { node_id: string; doc: unknown }[])
        out[row.node_id] = records.nodeEntry(
          row.doc,
          this.#where(sessionId, `orchestrator ${multiAgentId}, node ${row.node_id}`),
        );
      return out;
    });
  }

  async appendTransitions(
    sessionId: string,
    multiAgentId: string,
    transitions: readonly NodeTransition[],
  ): Promise<void> {
    return this.writeBatch(sessionId, [{ op: 'appendTransitions', multiAgentId, transitions }]);
  }

  async readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]> {
    checkSessionId(sessionId, 'session id');
    checkSessionId(multiAgentId, 'multi-agent id');
    const name = (n: number) => `transition ${n} of orchestrator ${multiAgentId} (session ${sessionId})`;
    return this.#read((st) => {
      const rows = st.readTransitions.all(sessionId, multiAgentId) as { seq: number; doc: unknown }[];
      checkContiguous(
        rows.map((r) => r.seq),
        0,
        name,
        this.store,
      );
      return rows.map((row) => records.transition(row.doc, this.#where(sessionId, name(row.seq)), row.seq));
    });
  }

  /** Applies `writes` in order in one transaction (all or none), with the checks of the single calls. */
  async writeBatch(sessionId: string, writes: readonly SessionWrite[]): Promise<void> {
    checkSessionId(sessionId, 'session id');
    for (const write of writes) checkWrite(write);
    await this.#write(sessionId, () => {
      for (const write of writes) this.#writes.apply(sessionId, write);
    });
  }

  /** The ids of the stored sessions, in order (for tools such as `skein sessions`). */
  async listSessions(): Promise<string[]> {
    return this.#read((st) => (st.listSessions.all() as { session_id: string }[]).map((r) => r.session_id));
  }

  /** The ids of a session's agents (`'agents'`) or orchestrators (`'multiAgents'`), in order. */
  async listIds(sessionId: string, kind: 'agents' | 'multiAgents'): Promise<string[]> {
    checkSessionId(sessionId, 'session id');
    const statement = (st: Statements) => (kind === 'agents' ? st.listAgents : st.listMultiAgents);
    return this.#read((st) => (statement(st).all(sessionId) as { id: string }[]).map((r) => r.id));
  }
}
