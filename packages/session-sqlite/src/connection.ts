import type BetterSqlite3 from 'better-sqlite3';
import { Checkpointer } from './checkpointer.js';
import { openDatabase } from './database.js';
import { toSessionError } from './errors.js';
import type { ResolvedSqliteOptions } from './options.js';
import { WalSync } from './wal-sync.js';

/** Parameters as better-sqlite3 binds them to numbered `?n` placeholders: `{ 1: first, 2: second, ... }`. */
function numbered(params: readonly unknown[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (let i = 0; i < params.length; i++) out[i + 1] = params[i];
  return out;
}

/**
 * The repository's one connection: opened (checked, migrated) at first use, reopened after `close()`.
 * On a writable file nothing of a commit waits on the disk on the event loop: checkpoints run on a
 * worker (`Checkpointer`) and, at `synchronous=FULL`, the WAL is synced on the thread pool before a
 * commit is acknowledged (`WalSync`; the connection itself runs at `NORMAL`).
 */
export class SqliteConnection {
  readonly #options: ResolvedSqliteOptions;
  #db: BetterSqlite3.Database | undefined;
  /** Statements prepared on this connection, by their text. */
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  #sync: WalSync | undefined;
  #checkpointer: Checkpointer | undefined;

  constructor(options: ResolvedSqliteOptions) {
    this.#options = options;
  }

  get isOpen(): boolean {
    return this.#db !== undefined;
  }

  /** The database (opened at first use). */
  db(): BetterSqlite3.Database {
    this.#db ??= this.#open();
    return this.#db;
  }

  #open(): BetterSqlite3.Database {
    const options = this.#options;
    const db = openDatabase(options);
    if (options.readonly || options.path === ':memory:') return db;
    db.pragma('wal_autocheckpoint = 0');
    this.#checkpointer = new Checkpointer(options.path, options.busyTimeoutMs, () => {
      if (this.#db === db) db.pragma('wal_autocheckpoint = 1000');
    });
    if (options.synchronous === 'FULL') {
      db.pragma('synchronous = NORMAL');
      this.#sync = new WalSync(options.path);
    }
    return db;
  }

  /**
   * After a COMMIT that carried `units` writes: the promise of its durability (undefined when the
   * COMMIT itself was all it took), and a checkpoint when one is due.
   */
  committed(units: number): Promise<void> | undefined {
    this.#checkpointer?.committed(units);
    return this.#sync?.request();
  }

  #prepared(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db().prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** The rows `sql` returns (synchronous: inside a transaction, or wrapped by `read`). */
  all<R>(sql: string, params: readonly unknown[]): R[] {
    return this.#prepared(sql).all(numbered(params)) as R[];
  }

  /** Runs `sql`: true when it touched a row (a write) or found one (a query). */
  touches(sql: string, params: readonly unknown[]): boolean {
    const statement = this.#prepared(sql);
    const bound = numbered(params);
    return statement.reader ? statement.get(bound) !== undefined : statement.run(bound).changes > 0;
  }

  /** A SQLite error as a `SessionError` naming the store and what to do. */
  fail(error: unknown, doing: string): unknown {
    return toSessionError(error, this.#options.store, doing, this.#options.busyTimeoutMs);
  }

  /** Runs a read; SQLite errors become `SessionError`s naming the store. */
  read<T>(read: () => T): Promise<T> {
    try {
      return Promise.resolve(read());
    } catch (error) {
      return Promise.reject(this.fail(error, 'reading'));
    }
  }

  /** Closes the database; syncs already asked for still finish (their file handle closes after them). */
  close(): void {
    this.#checkpointer?.close();
    this.#sync?.close().catch(() => undefined);
    this.#checkpointer = undefined;
    this.#sync = undefined;
    this.#db?.close();
    this.#db = undefined;
    this.#statements.clear();
  }
}
