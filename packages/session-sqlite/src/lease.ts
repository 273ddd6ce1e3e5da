/**
 * One writer per session: a lease row per session (`skein_leases`: the session's write generation and
 * its holder's owner id, pid, host and expiry), read and changed only inside write transactions, so
 * every write checks it atomically by core's rules (`LeaseBook`). A claim made inside a transaction
 * counts only once it commits: `ensure` records it in the transaction's overlay, `commit` keeps it,
 * `rollback` drops it (the group commit's hooks).
 */
import os from 'node:os';
import { describeLeaseHolder, LeaseBook, leaseHolderGone, type LeaseHolder } from '@skein/core';
import type { SqliteConnection } from './connection.js';
import type { TransactionHooks } from './group-commit.js';

/** A lease row. */
type LeaseRow = LeaseHolder & { generation: number };

const READ = 'SELECT generation, owner, pid, host, expires_at FROM skein_leases WHERE session_id = ?1';
const WRITE =
  'INSERT INTO skein_leases (session_id, generation, owner, pid, host, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ' +
  'ON CONFLICT DO UPDATE SET generation = excluded.generation, owner = excluded.owner, pid = excluded.pid, host = excluded.host, expires_at = excluded.expires_at';

/** This writer's SQLite leases: core's lease book, the rows, and the claims of the open transaction. */
export class SqliteLease implements TransactionHooks<Map<string, number | null>> {
  readonly book: LeaseBook<number>;
  readonly #conn: SqliteConnection;
  readonly #ttlMs: number;
  #overlay = new Map<string, number | null>();

  constructor(conn: SqliteConnection, store: string, ttlMs: number, takeover: boolean) {
    this.#conn = conn;
    this.#ttlMs = ttlMs;
    this.book = LeaseBook.rows(store, takeover);
  }

  /** The session's lease row (outside a transaction: a view's read; inside: the write's). */
  read(sessionId: string): LeaseRow | undefined {
    return this.#conn.all<LeaseRow>(READ, [sessionId])[0];
  }

  #write(sessionId: string, r: LeaseRow): void {
    this.#conn.touches(WRITE, [sessionId, r.generation, r.owner, r.pid, r.host, r.expires_at]);
  }

  #holds(sessionId: string): number | undefined {
    const staged = this.#overlay.get(sessionId);
    if (staged !== undefined) return staged ?? undefined;
    return this.book.holding(sessionId);
  }

  /** Remembers the session's generation and whether another live writer holds it (called before a load). */
  beginView(sessionId: string, row: LeaseRow | undefined): void {
    const owner = this.book.owner;
    if (this.#holds(sessionId) !== undefined && row?.owner === owner) return;
    const other = row !== undefined && row.owner !== owner && !leaseHolderGone(row, Date.now(), os.hostname());
    this.book.beginView(sessionId, {
      generation: row?.generation ?? 0,
      heldBy: other ? describeLeaseHolder(row) : undefined,
    });
  }

  /** Inside a write transaction: makes sure this writer holds `sessionId` (claims it, or throws `SessionConflictError`). */
  ensure(sessionId: string): void {
    const now = Date.now();
    const row = this.read(sessionId);
    const mine = this.#holds(sessionId);
    const record = row ?? { generation: 0, owner: null, pid: null, host: null, expires_at: null };
    let decided: { generation: number; claimed: boolean };
    try {
      decided = this.book.decide(sessionId, record, () => leaseHolderGone(record, now, os.hostname()), mine);
    } catch (error) {
      this.#overlay.delete(sessionId);
      throw error;
    }
    if (mine !== undefined) {
      if (row && (row.expires_at ?? 0) - now < this.#ttlMs / 2)
        this.#write(sessionId, { ...row, expires_at: now + this.#ttlMs });
      return;
    }
    const { generation } = decided;
    this.#write(sessionId, {
      generation,
      owner: this.book.owner,
      pid: process.pid,
      host: os.hostname(),
      expires_at: now + this.#ttlMs,
    });
    this.#overlay.set(sessionId, generation);
  }

  /** Inside a write transaction: gives the lease up (when held) and keeps the view; returns whether it was held. */
  release(sessionId: string): boolean {
    const mine = this.#holds(sessionId);
    if (mine === undefined) return false;
    const row = this.read(sessionId);
    if (row?.owner === this.book.owner && row.generation === mine)
      this.#write(sessionId, { generation: row.generation, owner: null, pid: null, host: null, expires_at: null });
    this.#overlay.set(sessionId, null);
    return true;
  }

  /**
   * Inside a write transaction: the heartbeat. Renews every lease this writer holds (a full lease from
   * now), so a live writer keeps its sessions however long it goes without writing, and one that
   * died loses them one `ttlMs` after its last beat. A lease found taken over is left alone (the next
   * write of this writer reports it).
   */
  renewHeld(): void {
    const now = Date.now();
    for (const sessionId of this.book.heldSessions()) {
      const row = this.read(sessionId);
      if (row?.owner === this.book.owner && row.generation === this.book.holding(sessionId))
        this.#write(sessionId, { ...row, expires_at: now + this.#ttlMs });
    }
  }

  /** A savepoint of the overlay, to go back to when one unit of a group fails. */
  mark(): Map<string, number | null> {
    return new Map(this.#overlay);
  }

  undo(mark: Map<string, number | null>): void {
    this.#overlay = mark;
  }

  /** The transaction committed: its claims and releases count. */
  commit(): void {
    for (const [sessionId, generation] of this.#overlay) {
      if (generation === null) this.book.drop(sessionId);
      else this.book.hold(sessionId, generation);
    }
    this.#overlay = new Map();
  }

  rollback(): void {
    this.#overlay = new Map();
  }
}
