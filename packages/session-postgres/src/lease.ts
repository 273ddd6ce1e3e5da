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
import os from 'node:os';
import { describeLeaseHolder, LeaseBook } from '@skein/core';
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

/** What the lease tells its presence: a lease of this process claimed (+1) or given up (-1). */
type Counter = (delta: number) => void;

/** This writer's PostgreSQL leases: core's lease book (its rules and messages) and the lease rows. */
export class PgLease {
  /** Owner ids start with `PRESENT_OWNER`: this writer keeps a presence, so others may check it. */
  readonly book: LeaseBook<number>;
  /** Told when this writer's held leases change (the presence stays connected while any is held). */
  counter: Counter = () => undefined;
  readonly #table: string;
  readonly #ttlMs: number;

  constructor(table: string, store: string, ttlMs: number, takeover: boolean) {
    this.#table = table;
    this.#ttlMs = ttlMs;
    this.book = LeaseBook.rows(store, takeover, PRESENT_OWNER);
  }

  /** This writer's owner id. */
  get owner(): string {
    return this.book.owner;
  }

  get selectSql(): string {
    return `SELECT generation::float8 AS generation, owner, pid, host, expires_at::float8 AS expires_at, last_batch, (extract(epoch from clock_timestamp()) * 1000)::float8 AS now_ms FROM ${this.#table} WHERE session_id = $1`;
  }

  /** The generation this writer holds `sessionId` with (committed), if it holds it. */
  holding(sessionId: string): number | undefined {
    return this.book.holding(sessionId);
  }

  /** Remembers the session's generation and whether another live writer holds it (`q` checks a holder's presence). */
  async beginView(
    q: { query<R extends object>(sql: string, params: unknown[]): Promise<{ rows: R[] }> },
    sessionId: string,
    row: LeaseRow | undefined,
  ): Promise<void> {
    if (this.holding(sessionId) !== undefined && row?.owner === this.owner) return;
    const other = row !== undefined && row.owner !== this.owner && !(await pgHolderGone(q, row, row.now_ms));
    this.book.beginView(sessionId, {
      generation: row?.generation ?? 0,
      heldBy: other ? describeLeaseHolder(row) : undefined,
    });
  }

  /**
   * Inside a write transaction: locks the lease row, checks this writer may write (claiming the
   * session when it does not hold it, by core's rules), and marks the row with `batchId`. Returns the
   * generation this writer holds once the transaction commits (give it to `committed`), and `done`
   * when the row says `batchId` committed already (an earlier attempt whose answer was lost): then
   * write nothing again.
   */
  async ensure(client: PoolClient, sessionId: string, batchId: string): Promise<{ generation: number; done: boolean }> {
    let row = (await client.query<LeaseRow>(`${this.selectSql} FOR UPDATE`, [sessionId])).rows[0];
    if (!row) {
      const made = await client.query(
        `INSERT INTO ${this.#table} (session_id, generation) VALUES ($1, 0) ON CONFLICT DO NOTHING`,
        [sessionId],
      );
      if (made.rowCount === 0) throw this.book.raceError(sessionId);
      row = (await client.query<LeaseRow>(`${this.selectSql} FOR UPDATE`, [sessionId])).rows[0] as LeaseRow;
    }
    if (row.last_batch === batchId && row.owner === this.owner) return { generation: row.generation, done: true };
    const gone = row.owner === this.owner || (await pgHolderGone(client, row, row.now_ms));
    const mine = this.holding(sessionId);
    let generation: number;
    try {
      generation = this.book.decide(sessionId, row, () => gone, mine).generation;
    } catch (error) {
      if (mine !== undefined && this.holding(sessionId) === undefined) this.counter(-1); // taken over: given up
      throw error;
    }
    await client.query(
      `UPDATE ${this.#table} SET generation = $2, owner = $3, pid = $4, host = $5, expires_at = $6, last_batch = $7 WHERE session_id = $1`,
      [sessionId, generation, this.owner, process.pid, os.hostname(), Math.round(row.now_ms + this.#ttlMs), batchId],
    );
    return { generation, done: false };
  }

  /** The transaction that ensured `generation` committed. */
  committed(sessionId: string, generation: number): void {
    if (this.holding(sessionId) === undefined) this.counter(1);
    this.book.hold(sessionId, generation);
  }

  /** Gives up the lease (when this writer still holds it) and keeps the view; writers waiting for it are told (`NOTIFY`). */
  async release(
    client: { query(text: string, values: unknown[]): Promise<unknown> },
    sessionId: string,
  ): Promise<void> {
    const mine = this.holding(sessionId);
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
    if (this.book.drop(sessionId)) this.counter(-1);
  }
}
