/**
 * One writer per session: a lease row per session (`skein_leases`: the write generation, the holder's
 * owner id, pid, host and expiry, and the id of the last write transaction), locked with
 * `SELECT ... FOR UPDATE` at the start of every write transaction. The generation is the fencing
 * token: a writer's transaction goes on only while the row still names it with the generation it
 * claimed, so a writer that lost its lease (it paused past it, another took over) cannot write even
 * once. A claim (the first write, or after a release) writes a new generation, and is refused while
 * another live writer holds the session or when this writer's view (`beginView`) is stale. A holder
 * is live until its lease expires, or, for a writer on another host, until its process's presence
 * lock is free (presence.ts): a killed server is taken over at once, not a lease later.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { describeLeaseHolder, leaseOwnerClosed, leaseOwnerOpened, SessionConflictError } from '@skein/core';
import type { PoolClient } from 'pg';
import { pgHolderGone, PRESENT_OWNER, RELEASED_CHANNEL } from './presence.js';

/** A lease row as read (numbers, not bigint strings), with the server's clock. */
export interface LeaseRow {
  generation: number;
  owner: string | null;
  pid: number | null;
  host: string | null;
  expires_at: number | null;
  last_batch: string | null;
  now_ms: number;
}

interface View {
  generation: number;
  heldBy: string | undefined;
}

/** What the lease book tells its presence: a lease of this process claimed (+1) or given up (-1). */
type Counter = (delta: number) => void;

export class PgLeaseBook {
  /** Starts with `PRESENT_OWNER`: this writer keeps a presence, so others may check it. */
  readonly owner = `${PRESENT_OWNER}${randomBytes(8).toString('hex')}`;
  /** Told when this writer's held leases change (the presence stays connected while any is held). */
  counter: Counter = () => undefined;
  readonly #held = new Map<string, number>();
  readonly #views = new Map<string, View>();
  readonly #table: string;
  readonly #store: string;
  readonly #ttlMs: number;
  readonly #takeover: boolean;

  constructor(table: string, store: string, ttlMs: number, takeover: boolean) {
    this.#table = table;
    this.#store = store;
    this.#ttlMs = ttlMs;
    this.#takeover = takeover;
    leaseOwnerOpened(this.owner);
  }

  close(): void {
    leaseOwnerClosed(this.owner);
    this.counter(-this.#held.size);
    this.#held.clear();
  }

  get selectSql(): string {
    return `SELECT generation::float8 AS generation, owner, pid, host, expires_at::float8 AS expires_at, last_batch, (extract(epoch from clock_timestamp()) * 1000)::float8 AS now_ms FROM ${this.#table} WHERE session_id = $1`;
  }

  /** The generation this writer holds `sessionId` with (committed), if it holds it. */
  holding(sessionId: string): number | undefined {
    return this.#held.get(sessionId);
  }

  heldSessions(): string[] {
    return [...this.#held.keys()];
  }

  /** Remembers the session's generation and whether another live writer holds it (`q` checks a holder's presence). */
  async beginView(
    q: { query<R extends object>(sql: string, params: unknown[]): Promise<{ rows: R[] }> },
    sessionId: string,
    row: LeaseRow | undefined,
  ): Promise<void> {
    if (this.#held.has(sessionId) && row?.owner === this.owner) return;
    const other = row !== undefined && row.owner !== this.owner && !(await pgHolderGone(q, row, row.now_ms));
    this.#views.set(sessionId, {
      generation: row?.generation ?? 0,
      heldBy: other ? describeLeaseHolder(row) : undefined,
    });
  }

  /**
   * Inside a write transaction: locks the lease row, checks this writer may write (claiming the
   * session when it does not hold it), and marks the row with `batchId`. Returns the generation this
   * writer holds once the transaction commits (give it to `committed`), and `done` when the row says
   * `batchId` committed already (an earlier attempt whose answer was lost): then write nothing again.
   */
  async ensure(client: PoolClient, sessionId: string, batchId: string): Promise<{ generation: number; done: boolean }> {
    let row = (await client.query<LeaseRow>(`${this.selectSql} FOR UPDATE`, [sessionId])).rows[0];
    if (!row) {
      const made = await client.query(
        `INSERT INTO ${this.#table} (session_id, generation) VALUES ($1, 0) ON CONFLICT DO NOTHING`,
        [sessionId],
      );
      if (made.rowCount === 0)
        throw this.#conflict(
          sessionId,
          'another writer claimed it at the same moment; retry later. Nothing was written.',
        );
      row = (await client.query<LeaseRow>(`${this.selectSql} FOR UPDATE`, [sessionId])).rows[0] as LeaseRow;
    }
    if (row.last_batch === batchId && row.owner === this.owner) return { generation: row.generation, done: true };
    const gone = row.owner === this.owner || (await pgHolderGone(client, row, row.now_ms));
    const generation = this.#check(sessionId, row, gone);
    await client.query(
      `UPDATE ${this.#table} SET generation = $2, owner = $3, pid = $4, host = $5, expires_at = $6, last_batch = $7 WHERE session_id = $1`,
      [sessionId, generation, this.owner, process.pid, os.hostname(), Math.round(row.now_ms + this.#ttlMs), batchId],
    );
    return { generation, done: false };
  }

  /** The generation this writer may write with (its own, or a new one claimed), or a `SessionConflictError`. */
  #check(sessionId: string, row: LeaseRow, gone: boolean): number {
    const mine = this.#held.get(sessionId);
    if (mine !== undefined) {
      if (row.owner === this.owner && row.generation === mine) return mine;
      this.#forget(sessionId);
      throw this.#conflict(
        sessionId,
        `this writer no longer holds it: ${row.owner ? `another writer (${describeLeaseHolder(row)}) took it over` : 'its lease was given up'} (it was idle or paused past its lease). Nothing more was written; reopen the session to continue from what is stored.`,
      );
    }
    if (row.owner === this.owner) return row.generation; // claimed by a transaction whose answer was lost
    if (!gone && !this.#takeover)
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
    if (view && view.generation !== row.generation)
      throw this.#conflict(
        sessionId,
        'another writer wrote it after this writer loaded it; reload the session (a new session manager) to continue from what is stored. Nothing was written.',
      );
    return row.generation + 1;
  }

  /** The transaction that ensured `generation` committed. */
  committed(sessionId: string, generation: number): void {
    if (!this.#held.has(sessionId)) this.counter(1);
    this.#held.set(sessionId, generation);
    this.#views.set(sessionId, { generation, heldBy: undefined });
  }

  /** Gives up the lease (when this writer still holds it) and keeps the view; writers waiting for it are told (`NOTIFY`). */
  async release(
    client: { query(text: string, values: unknown[]): Promise<unknown> },
    sessionId: string,
  ): Promise<void> {
    const mine = this.#held.get(sessionId);
    if (mine === undefined) return;
    await client.query(
      `WITH released AS (UPDATE ${this.#table} SET owner = NULL, pid = NULL, host = NULL, expires_at = NULL WHERE session_id = $1 AND owner = $2 AND generation = $3 RETURNING session_id) SELECT pg_notify($4, $5) FROM released`,
      [sessionId, this.owner, mine, RELEASED_CHANNEL, this.releaseKey(sessionId)],
    );
    this.#forget(sessionId);
  }

  /** What a release of `sessionId` announces (the lease table names the schema). */
  releaseKey(sessionId: string): string {
    return `${this.#table}:${sessionId}`;
  }

  #forget(sessionId: string): void {
    if (this.#held.delete(sessionId)) this.counter(-1);
  }

  #conflict(sessionId: string, why: string): SessionConflictError {
    return new SessionConflictError(`Session ${sessionId} in ${this.#store}: ${why}`, { location: this.#store });
  }
}
