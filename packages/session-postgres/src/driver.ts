import { sqlRefusal, type SessionWrite, type SqlDriver, type SqlStep, type SqlWrite } from '@skein/core';
import type { PoolClient } from 'pg';
import { pgCode } from './errors.js';
import type { PgLease } from './lease.js';
import type { PgRunner } from './runner.js';
import type { PgSessionClaims } from './session-claims.js';

/** The writes that the one-round-trip function (`skein_step`) applies: a batch's, not a session's creation or a delete. */
function stepWrites(writes: readonly SqlWrite[]): readonly SessionWrite[] | undefined {
  const plain = writes.every(
    (w) => w.op !== 'createSession' && w.op !== 'deleteSession' && w.op !== 'deleteMultiAgent',
  );
  return plain ? (writes as readonly SessionWrite[]) : undefined;
}

/**
 * How the PostgreSQL store runs statements: reads on the pool, and each write as one transaction of
 * the runner's that holds the session's lease (one statement, `skein_step`, while it is held). A
 * foreign key that refuses a write names what the write needs to exist.
 */
export class PgDriver implements SqlDriver {
  readonly #runner: PgRunner;
  readonly #lease: PgLease;
  readonly #claims: PgSessionClaims;
  readonly #store: string;

  constructor(runner: PgRunner, lease: PgLease, claims: PgSessionClaims, store: string) {
    this.#runner = runner;
    this.#lease = lease;
    this.#claims = claims;
    this.#store = store;
  }

  read<R>(sql: string, params: readonly unknown[], doing: string): Promise<R[]> {
    return this.#runner.read(doing, async (pool) => (await pool.query(sql, [...params])).rows as R[]);
  }

  async write(
    sessionId: string,
    batch: { writes: readonly SqlWrite[]; steps: SqlStep[] },
    doing: string,
  ): Promise<void> {
    const apply = async (client: PoolClient): Promise<void> => {
      for (const step of batch.steps) await this.#run(client, sessionId, step);
    };
    await this.#runner.write(sessionId, this.#lease, doing, apply, stepWrites(batch.writes));
    if (batch.writes.some((w) => w.op === 'deleteSession')) await this.#claims.release(sessionId);
  }

  async #run(client: PoolClient, sessionId: string, step: SqlStep): Promise<void> {
    let touched: number | null;
    try {
      touched = (await client.query(step.sql, step.params)).rowCount;
    } catch (error) {
      if (pgCode(error) !== '23503') throw error;
      const what = step.parent ?? `What the write to session ${sessionId} refers to`;
      throw sqlRefusal({ refusal: 'missing', what }, this.#store, error);
    }
    if (touched === 0 && step.noRow) throw sqlRefusal(step.noRow, this.#store);
  }
}
