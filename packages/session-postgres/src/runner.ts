import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { PgLeaseBook } from './lease.js';
import { isTransient, toSessionError } from './errors.js';
import type { ResolvedPostgresOptions } from './options.js';
import { PgPresence } from './presence.js';
import { checkSchema, quoteIdent } from './schema.js';
import { acquireSharedPool, notePassedPool, releaseSharedPool } from './shared-pools.js';
import { encodeWrites, stepError } from './step.js';
import type { SessionWrite } from '@skein/core';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs reads and write transactions with retries of transient faults. A write transaction locks the
 * session's lease row, checks the lease, marks the row with the transaction's batch id, applies the
 * writes and commits. When the answer is lost (the connection dropped at COMMIT), the retry's
 * transaction finds the batch id in the lease row if the first one committed, and writes nothing
 * again: a retried write is stored exactly once.
 */
export class PgRunner {
  readonly #options: ResolvedPostgresOptions;
  #pool: Promise<Pool> | undefined;
  #schema: Promise<void> | undefined;

  constructor(options: ResolvedPostgresOptions) {
    this.#options = options;
    if (options.pool) notePassedPool(options.pool, options.store);
  }

  /** The pool: yours, or the process's shared pool of the connection string (taken at first use, with `pg` loaded then). */
  pool(): Promise<Pool> {
    const { pool, connectionString, poolSize } = this.#options;
    this.#pool ??= pool ? Promise.resolve(pool) : acquireSharedPool(connectionString as string, poolSize);
    return this.#pool;
  }

  /** Lets go of the shared pool (it ends when its last user has; a pool you passed is left open). */
  async end(): Promise<void> {
    if (this.#options.pool || !this.#pool) return;
    this.#pool = undefined;
    releaseSharedPool(this.#options.connectionString as string, this.#options.poolSize);
  }

  async #retrying<T>(doing: string, attempt: () => Promise<T>): Promise<T> {
    const { attempts, initialDelayMs, maxDelayMs } = this.#options.retry;
    let delay = initialDelayMs;
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        if (!isTransient(error) || n >= attempts) throw toSessionError(error, this.#options.store, doing, n);
        await sleep(delay);
        delay = Math.min(delay * 2, maxDelayMs);
      }
    }
  }

  /** Creates or checks the schema once (again after a failure). */
  #ready(): Promise<void> {
    this.#schema ??= this.#retrying('checking the session tables', () =>
      this.#transaction((client) => checkSchema(client, this.#options.schema, this.#options.store)),
    ).catch((error: unknown) => {
      this.#schema = undefined;
      throw error;
    });
    return this.#schema;
  }

  async #transaction<T>(body: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await (await this.pool()).connect();
    let broken = false;
    const lost = (): void => void (broken = true); // a dropped connection also fails the pending query
    client.on('error', lost);
    try {
      await client.query('BEGIN');
      const out = await body(client);
      await client.query('COMMIT');
      return out;
    } catch (error) {
      broken = isTransient(error);
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      client.off('error', lost);
      client.release(broken);
    }
  }

  /** A read (retried when transient). */
  async read<T>(doing: string, body: (pool: Pool) => Promise<T>): Promise<T> {
    await this.#ready();
    return this.#retrying(doing, async () => body(await this.pool()));
  }

  /**
   * A write transaction on `sessionId` holding its lease (retried safely when transient). With
   * `writes` and the lease held: one statement (`skein_step`, see pg-step.ts); else, or when the lease
   * turns out not to be held, a transaction that checks or claims the lease and runs `apply`.
   */
  async write(
    sessionId: string,
    leases: PgLeaseBook,
    doing: string,
    apply: (client: PoolClient) => Promise<void>,
    writes?: readonly SessionWrite[],
  ): Promise<void> {
    await this.#ready();
    const batchId = randomUUID();
    const mine = leases.holding(sessionId);
    if (writes && mine !== undefined) {
      const sql = `SELECT ${quoteIdent(this.#options.schema)}.skein_step($1, $2, $3, $4, $5, $6::jsonb) AS r`;
      const params = [sessionId, leases.owner, mine, batchId, this.#options.leaseTtlMs, encodeWrites(writes)];
      const outcome = await this.#retrying(doing, async () => {
        const pool = await this.pool();
        return (
          await pool
            .query<{ r: string }>(sql, params)
            .catch((e: unknown) => Promise.reject(stepError(e, this.#options.store)))
        ).rows[0]?.r;
      });
      if (outcome !== 'unheld') return;
    }
    // A claim: be present first, so that no other writer takes this one for gone (presence.ts).
    if (leases.holding(sessionId) === undefined)
      await this.#retrying(doing, async () => PgPresence.of(await this.pool()).ready());
    const generation = await this.#retrying(doing, () =>
      this.#transaction(async (client) => {
        const lease = await leases.ensure(client, sessionId, batchId);
        if (!lease.done) await apply(client);
        return lease.generation;
      }),
    );
    leases.committed(sessionId, generation);
  }
}
