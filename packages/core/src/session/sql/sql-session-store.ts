import { checkSessionId } from '../session-codec.js';
import type { SessionWrite } from '../session-repository.js';
import { SessionStore } from '../store/session-store.js';
import type { SqlDialect } from './sql-dialect.js';
import { SqlRecords, type SqlDriver } from './sql-records.js';

/**
 * A SQL store (SQLite, PostgreSQL): its records are rows (`SqlRecords`, one statement module for
 * both, the dialect's differences in `SqlDialect`), every write is one transaction of its driver's,
 * and a step's writes are one batch (`writeBatch`): its COMMIT is the step's commit point.
 */
export abstract class SqlSessionStore extends SessionStore {
  /** How errors name this store (`sqlite:/data/desk.db`, `postgres://user@host:port/db`). */
  readonly store: string;
  protected readonly records: SqlRecords;
  protected readonly orchestrators: SqlRecords;

  constructor(dialect: SqlDialect, driver: SqlDriver, store: string) {
    super();
    this.store = store;
    this.records = new SqlRecords(dialect, driver, store);
    this.orchestrators = this.records;
  }

  /** Applies `writes` in order in one transaction (all or none), with the checks of the single calls. */
  async writeBatch(sessionId: string, writes: readonly SessionWrite[]): Promise<void> {
    this.checkBatch(sessionId, writes);
    await this.records.write(sessionId, writes);
  }

  /** The ids of the stored sessions, in order (for tools such as `skein sessions`). */
  listSessions(): Promise<string[]> {
    return this.records.listSessions();
  }

  /** The ids of a session's agents (`'agents'`) or orchestrators (`'multiAgents'`), in order. */
  async listIds(sessionId: string, kind: 'agents' | 'multiAgents'): Promise<string[]> {
    checkSessionId(sessionId, 'session id');
    return this.records.listIds(sessionId, kind);
  }
}
