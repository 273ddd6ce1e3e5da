import { recordText, SessionConflictError, SessionNotFoundError, type Session, type SessionWrite } from '@skein/core';
import type { PoolClient } from 'pg';
import { pgCode } from './errors.js';
import { writeStatements } from './write-statements.js';

/** What a write needs to exist (named when a foreign key refuses it). */
function parentOf(write: SessionWrite, sessionId: string): string {
  switch (write.op) {
    case 'createAgent':
    case 'createMultiAgent':
      return `Session ${sessionId} does not exist`;
    case 'createMessage':
      return `Agent ${write.agentId} does not exist in session ${sessionId}`;
    case 'putNodeEntry':
    case 'appendTransitions':
      return `Orchestrator ${write.multiAgentId} does not exist in session ${sessionId}`;
    default:
      return `What ${write.op} writes to does not exist in session ${sessionId}`;
  }
}

/** Applies session writes with the single calls' checks, inside the caller's transaction. */
export class PgWrites {
  readonly #t: (name: string) => string;
  readonly #store: string;

  constructor(table: (name: string) => string, store: string) {
    this.#t = table;
    this.#store = store;
  }

  async createSession(c: PoolClient, session: Session): Promise<void> {
    const sql = `INSERT INTO ${this.#t('skein_sessions')} VALUES ($1, $2) ON CONFLICT DO NOTHING`;
    if ((await c.query(sql, [session.session_id, recordText(session)])).rowCount === 0)
      throw this.#exists(`Session ${session.session_id}`);
  }

  async apply(client: PoolClient, sessionId: string, write: SessionWrite): Promise<void> {
    try {
      await this.#apply(client, sessionId, write);
    } catch (error) {
      if (pgCode(error) !== '23503') throw error;
      throw new SessionNotFoundError(`${parentOf(write, sessionId)} in ${this.#store}; create it first.`, {
        location: this.#store,
        cause: error,
      });
    }
  }

  #exists(what: string): SessionConflictError {
    return new SessionConflictError(`${what} already exists in ${this.#store}; nothing was overwritten.`, {
      location: this.#store,
    });
  }

  #missing(what: string): SessionNotFoundError {
    return new SessionNotFoundError(`${what} does not exist in ${this.#store}; create it first.`, {
      location: this.#store,
    });
  }

  async #apply(c: PoolClient, s: string, w: SessionWrite): Promise<void> {
    for (const statement of writeStatements(this.#t, s, w)) {
      const r = await c.query(statement.sql, statement.params);
      if (r.rowCount === 0 && statement.noRow) throw this.#refusal(statement.noRow.refusal, statement.noRow.what);
    }
  }

  #refusal(refusal: 'exists' | 'missing' | 'order', what: string): SessionConflictError | SessionNotFoundError {
    if (refusal === 'exists') return this.#exists(what);
    if (refusal === 'missing') return this.#missing(what);
    return new SessionConflictError(
      `${what} is out of order or already stored in ${this.#store}; nothing was written.`,
      { location: this.#store },
    );
  }
}
