/**
 * One writer per session: a lease row per session (`skein_leases`: the session's write generation and
 * its holder's owner id, pid, host and expiry), read and changed only inside write transactions, so
 * every write checks it atomically. A writer claims a session at its first write (a new generation);
 * it may not claim while another live writer holds it, nor when its view (`beginView`, taken before it
 * loaded the session) is stale: another writer held the session then, or claimed it since.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import {
  describeLeaseHolder,
  leaseHolderGone,
  leaseOwnerClosed,
  leaseOwnerOpened,
  SessionConflictError,
} from '@skein/core';

/** A lease row. */
export interface LeaseRow {
  generation: number;
  owner: string | null;
  pid: number | null;
  host: string | null;
  expires_at: number | null;
}

/** What a writer saw when it began its view of a session. */
interface View {
  generation: number;
  /** The other writer holding the session then (as the error message shows it). */
  heldBy: string | undefined;
}

/** Reads and writes lease rows inside the caller's transaction. */
export interface LeaseTable {
  read(sessionId: string): LeaseRow | undefined;
  write(sessionId: string, row: LeaseRow): void;
}

/**
 * This writer's leases and views. Claims made inside a transaction count only once it commits:
 * `ensure` records them in the transaction's overlay, `commit` keeps them, `rollback` drops them.
 */
export class LeaseBook {
  readonly owner = randomBytes(8).toString('hex');
  readonly #held = new Map<string, number>();
  readonly #views = new Map<string, View>();
  #overlay = new Map<string, number | null>();
  readonly #ttlMs: number;
  readonly #takeover: boolean;
  readonly #store: string;

  constructor(store: string, ttlMs: number, takeover: boolean) {
    this.#store = store;
    this.#ttlMs = ttlMs;
    this.#takeover = takeover;
    leaseOwnerOpened(this.owner);
  }

  /** Forgets every lease (the repository closed). */
  close(): void {
    leaseOwnerClosed(this.owner);
    this.#held.clear();
  }

  #holds(sessionId: string): number | undefined {
    const staged = this.#overlay.get(sessionId);
    if (staged !== undefined) return staged ?? undefined;
    return this.#held.get(sessionId);
  }

  /** Remembers the session's generation and whether another live writer holds it (called before a load). */
  beginView(sessionId: string, row: LeaseRow | undefined): void {
    const mine = this.#holds(sessionId);
    if (mine !== undefined && row?.owner === this.owner) return;
    const other = row !== undefined && row.owner !== this.owner && !leaseHolderGone(row, Date.now(), os.hostname());
    this.#views.set(sessionId, {
      generation: row?.generation ?? 0,
      heldBy: other ? describeLeaseHolder(row) : undefined,
    });
  }

  /** Inside a write transaction: makes sure this writer holds `sessionId` (claims it, or throws `SessionConflictError`). */
  ensure(table: LeaseTable, sessionId: string): void {
    const now = Date.now();
    const row = table.read(sessionId);
    const mine = this.#holds(sessionId);
    if (mine !== undefined) {
      if (row?.owner === this.owner && row.generation === mine) {
        if ((row.expires_at ?? 0) - now < this.#ttlMs / 2)
          table.write(sessionId, { ...row, expires_at: now + this.#ttlMs });
        return;
      }
      this.#held.delete(sessionId);
      this.#overlay.delete(sessionId);
      throw this.#conflict(
        sessionId,
        `this writer no longer holds it: ${row?.owner ? `another writer (${describeLeaseHolder(row)}) took it over` : 'its lease was given up'} (it was idle past its lease). Nothing more was written; reopen the session to continue from what is stored.`,
      );
    }
    if (row && !leaseHolderGone(row, now, os.hostname()) && !this.#takeover)
      throw this.#conflict(
        sessionId,
        `another writer holds it (${describeLeaseHolder(row)}); only one writer may hold a session. Close the other writer (close() on its session manager gives it up), wait until its lease expires, or pass takeover: true if you know it is gone. Nothing was written.`,
      );
    const view = this.#views.get(sessionId);
    if (view?.heldBy)
      throw this.#conflict(
        sessionId,
        `another writer (${view.heldBy}) held it when this writer loaded it, so what this writer loaded may be stale; reload the session (a new session manager) to continue from what is stored. Nothing was written.`,
      );
    if (view && view.generation !== (row?.generation ?? 0))
      throw this.#conflict(
        sessionId,
        `another writer wrote it after this writer loaded it; reload the session (a new session manager) to continue from what is stored. Nothing was written.`,
      );
    const generation = (row?.generation ?? 0) + 1;
    table.write(sessionId, {
      generation,
      owner: this.owner,
      pid: process.pid,
      host: os.hostname(),
      expires_at: now + this.#ttlMs,
    });
    this.#overlay.set(sessionId, generation);
  }

  /** Inside a write transaction: gives the lease up (when held) and keeps the view; returns whether it was held. */
  release(table: LeaseTable, sessionId: string): boolean {
    const mine = this.#holds(sessionId);
    if (mine === undefined) return false;
    const row = table.read(sessionId);
    if (row?.owner === this.owner && row.generation === mine)
      table.write(sessionId, { generation: row.generation, owner: null, pid: null, host: null, expires_at: null });
    this.#overlay.set(sessionId, null);
    return true;
  }

  /**
   * Inside a write transaction: the heartbeat. Renews every lease this writer holds (a full lease from
   * now), so a live writer keeps its sessions however long it goes without writing, and one that
   * died loses them one `ttlMs` after its last beat. A lease found taken over is left alone (the next
   * write of this writer reports it).
   */
  renewHeld(table: LeaseTable): void {
    const now = Date.now();
    for (const [sessionId, mine] of this.#held) {
      const row = table.read(sessionId);
      if (row?.owner === this.owner && row.generation === mine)
        table.write(sessionId, { ...row, expires_at: now + this.#ttlMs });
    }
  }

  /** Sessions this writer holds (committed). */
  heldSessions(): string[] {
    return [...this.#held.keys()];
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
      if (generation === null) this.#held.delete(sessionId);
      else {
        this.#held.set(sessionId, generation);
        this.#views.set(sessionId, { generation, heldBy: undefined });
      }
    }
    this.#overlay = new Map();
  }

  rollback(): void {
    this.#overlay = new Map();
  }

  #conflict(sessionId: string, why: string): SessionConflictError {
    return new SessionConflictError(`Session ${sessionId} in ${this.#store}: ${why}`, { location: this.#store });
  }
}
