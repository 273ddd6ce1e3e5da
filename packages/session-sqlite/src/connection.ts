import type BetterSqlite3 from 'better-sqlite3';
import type { LeaseRow, LeaseTable } from './lease-book.js';
import { openDatabase, type Statements } from './database.js';
import { toSessionError } from './errors.js';
import type { ResolvedSqliteOptions } from './options.js';

/** The repository's one connection: opened (checked, migrated) at first use, reopened after `close()`. */
export class SqliteConnection {
  readonly #options: ResolvedSqliteOptions;
  #open: { db: BetterSqlite3.Database; st: Statements } | undefined;
  /** The lease rows, read and written through this connection (inside the caller's transaction). */
  readonly leases: LeaseTable = {
    read: (sessionId) => this.get().st.readLease.get(sessionId) as LeaseRow | undefined,
    write: (sessionId, r) =>
      void this.get().st.writeLease.run(sessionId, r.generation, r.owner, r.pid, r.host, r.expires_at),
  };

  constructor(options: ResolvedSqliteOptions) {
    this.#options = options;
  }

  get isOpen(): boolean {
    return this.#open !== undefined;
  }

  get(): { db: BetterSqlite3.Database; st: Statements } {
    if (this.#open) return this.#open;
    const { db, statements } = openDatabase(this.#options);
    this.#open = { db, st: statements };
    return this.#open;
  }

  /** A SQLite error as a `SessionError` naming the store and what to do. */
  fail(error: unknown, doing: string): unknown {
    return toSessionError(error, this.#options.store, doing, this.#options.busyTimeoutMs);
  }

  /** Runs a read; SQLite errors become `SessionError`s naming the store. */
  read<T>(read: (st: Statements) => T): Promise<T> {
    try {
      return Promise.resolve(read(this.get().st));
    } catch (error) {
      return Promise.reject(this.fail(error, 'reading'));
    }
  }

  close(): void {
    this.#open?.db.close();
    this.#open = undefined;
  }
}
