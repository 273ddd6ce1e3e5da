import type BetterSqlite3 from 'better-sqlite3';

/** A transaction's participants besides the database (the lease book): kept or dropped with it. */
export interface TransactionHooks<M> {
  mark(): M;
  undo(mark: M): void;
  commit(): void;
  rollback(): void;
}

interface Unit {
  run(): void;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit: write units submitted in the same turn of the event loop (steps of different
 * conversations that became ready together) run in one transaction, each inside its own savepoint,
 * so one unit's failure (a conflict, a missing item) rolls back only that unit. The transaction
 * starts in a `setImmediate` after the first unit: a lone writer waits for no timer, only for the
 * rest of the current turn. Its COMMIT is every unit's commit point; a failed COMMIT fails them all.
 * A unit is acknowledged once its COMMIT is durable (`committed`: at `synchronous=FULL`, a WAL sync
 * off the event loop).
 */
export class GroupCommit<M> {
  /** Write transactions committed, and the units (single writes, batches) they carried. */
  readonly stats = { transactions: 0, units: 0 };
  #units: Unit[] = [];
  #scheduled = false;
  readonly #db: () => BetterSqlite3.Database;
  readonly #hooks: TransactionHooks<M>;
  readonly #fail: (error: unknown) => unknown;
  readonly #grouped: boolean;
  readonly #committed: (units: number) => Promise<void> | undefined;

  /** @param committed after each COMMIT: the promise of its durability, or undefined when it is durable already. */
  constructor(
    db: () => BetterSqlite3.Database,
    hooks: TransactionHooks<M>,
    fail: (error: unknown) => unknown,
    grouped: boolean,
    committed: (units: number) => Promise<void> | undefined,
  ) {
    this.#db = db;
    this.#hooks = hooks;
    this.#fail = fail;
    this.#grouped = grouped;
    this.#committed = committed;
  }

  /** Runs `run` inside a write transaction; resolves once that transaction committed. */
  submit(run: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#units.push({ run, resolve, reject });
      if (!this.#grouped) return this.#flush();
      if (this.#scheduled) return;
      this.#scheduled = true;
      setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const units = this.#units;
    this.#units = [];
    let db: BetterSqlite3.Database;
    try {
      db = this.#db();
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const unit of units) unit.reject(this.#fail(error));
      return;
    }
    const failed = units.length === 1 ? this.#runAlone(db, units[0] as Unit) : this.#runEach(db, units);
    if (failed === 'aborted') return;
    try {
      db.exec('COMMIT');
      this.#hooks.commit();
      this.stats.transactions++;
      this.stats.units += units.length;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      this.#hooks.rollback();
      for (const unit of units) unit.reject(this.#fail(error));
      return;
    }
    const kept = units.filter((unit, i) => (failed.has(i) ? void unit.reject(this.#fail(failed.get(i))) : true));
    const durable = this.#committed(kept.length);
    if (!durable) for (const unit of kept) unit.resolve();
    else
      durable.then(
        () => kept.forEach((unit) => unit.resolve()),
        (error: unknown) => kept.forEach((unit) => unit.reject(this.#fail(error))),
      );
  }

  /** One unit: no savepoint; when it fails, the whole transaction is rolled back. */
  #runAlone(db: BetterSqlite3.Database, unit: Unit): Map<number, unknown> | 'aborted' {
    try {
      unit.run();
      return new Map();
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      this.#hooks.rollback();
      unit.reject(this.#fail(error));
      return 'aborted';
    }
  }

  /** Several units, each in a savepoint; returns the failed ones (or 'aborted' when SQLite ended the transaction). */
  #runEach(db: BetterSqlite3.Database, units: Unit[]): Map<number, unknown> | 'aborted' {
    const failed = new Map<number, unknown>();
    for (const [i, unit] of units.entries()) {
      const mark = this.#hooks.mark();
      db.exec('SAVEPOINT unit');
      try {
        unit.run();
        db.exec('RELEASE unit');
      } catch (error) {
        if (!db.inTransaction) {
          // SQLite rolled the whole transaction back (an I/O error, a full disk): every unit fails.
          this.#hooks.rollback();
          for (const u of units) u.reject(this.#fail(error));
          return 'aborted';
        }
        db.exec('ROLLBACK TO unit');
        db.exec('RELEASE unit');
        this.#hooks.undo(mark);
        failed.set(i, error);
      }
    }
    return failed;
  }
}
