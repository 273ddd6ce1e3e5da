import { LeaseHeartbeat, sqlRefusal, type SqlDriver, type SqlStep, type SqlWrite } from '@skein/core';
import type { SqliteConnection } from './connection.js';
import { GroupCommit } from './group-commit.js';
import { SqliteLease } from './lease.js';
import type { ResolvedSqliteOptions } from './options.js';

/**
 * How the SQLite store runs statements: reads on its one connection, and each write (a single call or
 * a step's batch) as a unit of a group commit (one transaction for the units ready in the same turn
 * of the event loop), inside which the session's lease is checked first. Leases held are renewed by
 * a heartbeat.
 */
export class SqliteDriver implements SqlDriver {
  readonly lease: SqliteLease;
  readonly group: GroupCommit<Map<string, number | null>>;
  readonly #conn: SqliteConnection;
  readonly #store: string;
  readonly #heartbeat: LeaseHeartbeat;

  constructor(conn: SqliteConnection, resolved: ResolvedSqliteOptions) {
    this.#conn = conn;
    this.#store = resolved.store;
    this.lease = new SqliteLease(conn, resolved.store, resolved.leaseTtlMs, resolved.takeover);
    const db = () => conn.db();
    const fail = (e: unknown) => conn.fail(e, 'writing');
    this.group = new GroupCommit(db, this.lease, fail, resolved.groupCommit, (units) => conn.committed(units));
    this.#heartbeat = new LeaseHeartbeat(
      resolved.leaseTtlMs,
      () => this.group.submit(() => this.lease.renewHeld()),
      () => this.lease.book.heldSessions().length > 0 && conn.isOpen,
    );
  }

  read<R>(sql: string, params: readonly unknown[]): Promise<R[]> {
    return this.#conn.read(() => this.#conn.all<R>(sql, params));
  }

  /** One unit of the group commit: the lease, then the steps; a deleted session gives its lease up with it. */
  async write(sessionId: string, batch: { writes: readonly SqlWrite[]; steps: SqlStep[] }): Promise<void> {
    await this.group.submit(() => {
      this.lease.ensure(sessionId);
      for (const step of batch.steps) {
        if (!this.#conn.touches(step.sql, step.params) && step.noRow) throw sqlRefusal(step.noRow, this.#store);
      }
      if (batch.writes.some((w) => w.op === 'deleteSession')) this.lease.release(sessionId);
    });
    this.#heartbeat.poke();
  }

  /** Gives up every lease held (errors ignored: a lease left behind expires), stops the heartbeat and closes the database. */
  async close(): Promise<void> {
    const held = this.lease.book.heldSessions();
    if (held.length > 0 && this.#conn.isOpen)
      await this.group
        .submit(() => {
          for (const sessionId of held) this.lease.release(sessionId);
        })
        .catch(() => undefined);
    this.#heartbeat.stop();
    this.#conn.close();
  }
}
