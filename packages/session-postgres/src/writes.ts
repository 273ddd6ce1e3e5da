import {
  checkSessionId,
  SessionConflictError,
  SessionNotFoundError,
  type Session,
  type SessionWrite,
} from '@skein/core';
import type { PoolClient } from 'pg';
import { checkIndex, toDoc } from './documents.js';
import { pgCode } from './errors.js';

/** Checks a write's ids before anything is touched (an invalid id is a `SessionNotFoundError`). */
export function checkWrite(write: SessionWrite): void {
  switch (write.op) {
    case 'createAgent':
    case 'updateAgent':
      return checkSessionId(write.agent.agent_id, 'agent id');
    case 'createMessage':
    case 'updateMessage':
      checkSessionId(write.agentId, 'agent id');
      return void checkIndex(write.message.message_id, 'message_id');
    case 'deleteMessages':
      checkSessionId(write.agentId, 'agent id');
      return void checkIndex(write.fromMessageId, 'fromMessageId');
    case 'createMultiAgent':
    case 'updateMultiAgent':
      return checkSessionId(write.multiAgent.id, 'multi-agent id');
    case 'putNodeEntry':
      checkSessionId(write.multiAgentId, 'multi-agent id');
      return checkSessionId(write.nodeId, 'node id');
    case 'appendTransitions':
      checkSessionId(write.multiAgentId, 'multi-agent id');
      for (const t of write.transitions) checkIndex(t.seq, 'transition seq');
      return;
    default:
      throw new SessionNotFoundError(`Unknown session write ${JSON.stringify((write as { op?: unknown }).op)}.`);
  }
}

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
    if ((await c.query(sql, [session.session_id, toDoc(session)])).rowCount === 0)
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
    const t = this.#t;
    switch (w.op) {
      case 'createAgent': {
        const r = await c.query(`INSERT INTO ${t('skein_agents')} VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
          s,
          w.agent.agent_id,
          toDoc(w.agent),
        ]);
        if (r.rowCount === 0) throw this.#exists(`Agent ${w.agent.agent_id} of session ${s}`);
        return;
      }
      case 'updateAgent': {
        const r = await c.query(`UPDATE ${t('skein_agents')} SET doc = $3 WHERE session_id = $1 AND agent_id = $2`, [
          s,
          w.agent.agent_id,
          toDoc(w.agent),
        ]);
        if (r.rowCount === 0) throw this.#missing(`Agent ${w.agent.agent_id} of session ${s}`);
        return;
      }
      case 'createMessage': {
        const r = await c.query(`INSERT INTO ${t('skein_messages')} VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [
          s,
          w.agentId,
          w.message.message_id,
          toDoc(w.message),
        ]);
        if (r.rowCount === 0)
          throw this.#exists(`Message ${w.message.message_id} of agent ${w.agentId} in session ${s}`);
        return;
      }
      case 'updateMessage': {
        const r = await c.query(
          `UPDATE ${t('skein_messages')} SET doc = $4 WHERE session_id = $1 AND agent_id = $2 AND message_id = $3`,
          [s, w.agentId, w.message.message_id, toDoc(w.message)],
        );
        if (r.rowCount === 0)
          throw this.#missing(`Message ${w.message.message_id} of agent ${w.agentId} in session ${s}`);
        return;
      }
      case 'deleteMessages':
        await c.query(
          `DELETE FROM ${t('skein_messages')} WHERE session_id = $1 AND agent_id = $2 AND message_id >= $3`,
          [s, w.agentId, w.fromMessageId],
        );
        return;
      case 'createMultiAgent': {
        const r = await c.query(`INSERT INTO ${t('skein_multi_agents')} VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
          s,
          w.multiAgent.id,
          toDoc(w.multiAgent),
        ]);
        if (r.rowCount === 0) throw this.#exists(`Orchestrator ${w.multiAgent.id} of session ${s}`);
        return;
      }
      case 'updateMultiAgent': {
        const r = await c.query(
          `UPDATE ${t('skein_multi_agents')} SET doc = $3 WHERE session_id = $1 AND multi_agent_id = $2`,
          [s, w.multiAgent.id, toDoc(w.multiAgent)],
        );
        if (r.rowCount === 0) throw this.#missing(`Orchestrator ${w.multiAgent.id} of session ${s}`);
        return;
      }
      case 'putNodeEntry':
        await c.query(
          `INSERT INTO ${t('skein_nodes')} VALUES ($1, $2, $3, $4) ON CONFLICT (session_id, multi_agent_id, node_id) DO UPDATE SET doc = excluded.doc`,
          [s, w.multiAgentId, w.nodeId, toDoc(w.entry)],
        );
        return;
      case 'appendTransitions':
        for (const tr of w.transitions) {
          const r = await c.query(
            `INSERT INTO ${t('skein_transitions')} SELECT $1::text, $2::text, $3::bigint, $4::text WHERE $3::bigint = (SELECT COALESCE(MAX(seq) + 1, 0) FROM ${t('skein_transitions')} WHERE session_id = $1 AND multi_agent_id = $2)`,
            [s, w.multiAgentId, tr.seq, toDoc(tr)],
          );
          if (r.rowCount === 0)
            throw new SessionConflictError(
              `Transition ${tr.seq} of orchestrator ${w.multiAgentId} in session ${s} is out of order or already stored in ${this.#store}; nothing was written.`,
              { location: this.#store },
            );
        }
        return;
    }
  }
}
