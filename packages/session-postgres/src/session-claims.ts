/**
 * A repository's claims on sessions, seen from outside its write transactions: beginning a view,
 * giving a lease up, giving them all up at close, and waiting for another writer's lease to end.
 */
import { checkSessionId } from '@skein/core';
import type { PgLeaseBook, LeaseRow } from './lease.js';
import { PgPresence, pgHolderGone } from './presence.js';
import type { PgRunner } from './runner.js';

export class PgSessionClaims {
  readonly #runner: PgRunner;
  readonly #leases: PgLeaseBook;

  constructor(runner: PgRunner, leases: PgLeaseBook) {
    this.#runner = runner;
    this.#leases = leases;
    leases.counter = (delta) => void runner.pool().then((pool) => PgPresence.of(pool).count(delta));
  }

  async #lease(sessionId: string): Promise<LeaseRow | undefined> {
    return this.#runner.read('reading the session lease', async (pool) => {
      return (await pool.query<LeaseRow>(this.#leases.selectSql, [sessionId])).rows[0];
    });
  }

  async beginView(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    const row = await this.#lease(sessionId);
    await this.#leases.beginView(await this.#runner.pool(), sessionId, row);
  }

  async release(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    await this.#leases.release(await this.#runner.pool(), sessionId);
  }

  /** Gives up every lease this writer holds (errors ignored: a lease left behind expires, and its presence ends with the process). */
  async releaseAll(): Promise<void> {
    const held = this.#leases.heldSessions();
    if (held.length === 0) return;
    const pool = await this.#runner.pool();
    await Promise.all(held.map((id) => this.#leases.release(pool, id).catch(() => undefined)));
  }

  /**
   * Resolves `true` once no other live writer holds `sessionId`: at once when none does, else when its
   * holder gives the lease up (told by `NOTIFY`) or is found gone at the end of `timeoutMs` (`false`
   * when it still holds it then).
   */
  async waitForRelease(sessionId: string, timeoutMs: number): Promise<boolean> {
    checkSessionId(sessionId, 'session id');
    const pool = await this.#runner.pool();
    const presence = PgPresence.of(pool);
    await presence.ready();
    const stop = new AbortController();
    const told = presence.waitFor(this.#leases.releaseKey(sessionId), timeoutMs, stop.signal);
    // Listening before looking: a release between the two is not missed.
    if (await this.#free(sessionId)) {
      stop.abort();
      return true;
    }
    return (await told) || this.#free(sessionId);
  }

  async #free(sessionId: string): Promise<boolean> {
    const row = await this.#lease(sessionId);
    if (!row || row.owner === this.#leases.owner) return true;
    return pgHolderGone(await this.#runner.pool(), row, row.now_ms);
  }
}
