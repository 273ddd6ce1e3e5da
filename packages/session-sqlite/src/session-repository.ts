import { checkSessionId, SQLITE_DIALECT, SqlSessionStore } from '@skein/core';
import { SqliteConnection } from './connection.js';
import { SqliteDriver } from './driver.js';
import { resolveSqliteOptions, type SqliteSessionRepositoryOptions } from './options.js';

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
export class SqliteSessionRepository extends SqlSessionStore {
  readonly #conn: SqliteConnection;
  readonly #driver: SqliteDriver;

  constructor(options: SqliteSessionRepositoryOptions) {
    const resolved = resolveSqliteOptions(options, 'SqliteSessionRepository');
    const conn = new SqliteConnection(resolved);
    const driver = new SqliteDriver(conn, resolved);
    super(SQLITE_DIALECT, driver, resolved.store);
    this.#conn = conn;
    this.#driver = driver;
  }

  /** Write transactions committed so far and the writes (single calls, batches) they carried: group commit at work. */
  get stats(): { readonly transactions: number; readonly units: number } {
    return { ...this.#driver.group.stats };
  }

  async beginView(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    const lease = this.#driver.lease;
    const row = await this.#conn.read(() => lease.read(sessionId));
    lease.beginView(sessionId, row);
  }

  async release(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    const lease = this.#driver.lease;
    if (lease.book.holding(sessionId) === undefined) return;
    await this.#driver.group.submit(() => void lease.release(sessionId));
  }

  /** Gives up every session lease this repository holds, then closes the database (reopened if used again). */
  close(): Promise<void> {
    return this.#driver.close();
  }
}
