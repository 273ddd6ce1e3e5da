import { postgresDialect, SqlSessionStore } from '@skein/core';
import type { Pool } from 'pg';
import { PgDriver } from './driver.js';
import { PgLease } from './lease.js';
import { resolvePostgresOptions, type PostgresSessionRepositoryOptions } from './options.js';
import { PgRunner } from './runner.js';
import { PgSessionClaims } from './session-claims.js';
import { quoteIdent } from './schema.js';

/**
 * Sessions in PostgreSQL (node-postgres, a pool): the store for many machines. Each write, and each
 * `writeBatch` (an orchestrator's whole step), is one transaction whose COMMIT is its commit point.
 * One writer per session: a lease row with a fencing generation, locked and checked inside every
 * write transaction. Transient faults are retried, and a retried write is stored exactly once.
 * @example
 * const repository = new PostgresSessionRepository({ connectionString: process.env.DATABASE_URL });
 * const agent = new Agent({ model, sessionManager: new RepositorySessionManager({ sessionId: 'user-1', repository }) });
 */
export class PostgresSessionRepository extends SqlSessionStore {
  readonly #runner: PgRunner;
  readonly #claims: PgSessionClaims;

  constructor(options: PostgresSessionRepositoryOptions) {
    const resolved = resolvePostgresOptions(options, 'PostgresSessionRepository');
    const schema = quoteIdent(resolved.schema);
    const runner = new PgRunner(resolved);
    const lease = new PgLease(`${schema}.skein_leases`, resolved.store, resolved.leaseTtlMs, resolved.takeover);
    const claims = new PgSessionClaims(runner, lease);
    super(postgresDialect(schema), new PgDriver(runner, lease, claims, resolved.store), resolved.store);
    this.#runner = runner;
    this.#claims = claims;
  }

  /** The pool in use (made from the connection string at first use, or yours). */
  pool(): Promise<Pool> {
    return this.#runner.pool();
  }

  beginView(sessionId: string): Promise<void> {
    return this.#claims.beginView(sessionId);
  }

  release(sessionId: string): Promise<void> {
    return this.#claims.release(sessionId);
  }

  /**
   * Resolves `true` once no other live writer holds `sessionId`: at once, when its holder gives the
   * lease up (PostgreSQL `NOTIFY`), or when the holder is found gone; `false` after `timeoutMs`.
   */
  waitForRelease(sessionId: string, timeoutMs: number): Promise<boolean> {
    return this.#claims.waitForRelease(sessionId, timeoutMs);
  }

  /** Gives up this writer's session leases, then lets go of the pool (one made from a connection string ends when its last user closes; yours is left open). */
  async close(): Promise<void> {
    await this.#claims.releaseAll();
    await this.#runner.end();
  }
}
