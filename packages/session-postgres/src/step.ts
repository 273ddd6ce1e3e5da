/**
 * The one-round-trip write: a writer that holds a session's lease sends a whole write (a single call
 * or a step's batch) as one statement, `SELECT skein_step(...)`, a PL/pgSQL function that locks the
 * lease row, checks it still names this writer with its generation, marks it with the batch id and
 * applies the writes with the checks of the single calls, all or none (one statement is one
 * transaction). It answers `unheld` when the lease is not this writer's (the caller then takes the
 * full path that claims or reports the conflict) and `done` when the batch id is there already (a
 * retry of a write whose answer was lost).
 */
import { recordText, SessionConflictError, SessionNotFoundError, type SessionWrite } from '@skein/core';
import { pgCode } from './errors.js';
import {
  agentWritesSql,
  leaseCheckSql,
  messageWritesSql,
  orchestratorWritesSql,
  transitionWritesSql,
} from './step-statements.js';

/** The function, in schema `s` (quoted). */
export function stepFunctionSql(s: string): string {
  return `
CREATE OR REPLACE FUNCTION ${s}.skein_step(p_session text, p_owner text, p_generation bigint, p_batch text, p_ttl_ms bigint, p_writes jsonb)
RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  l record;
  w jsonb;
  t jsonb;
  next_seq bigint;
BEGIN
${leaseCheckSql(s)}
  FOR w IN SELECT value FROM jsonb_array_elements(p_writes) LOOP
    CASE w->>'op'
${agentWritesSql(s)}
${messageWritesSql(s)}
${orchestratorWritesSql(s)}
${transitionWritesSql(s)}
    END CASE;
  END LOOP;
  RETURN 'ok';
END
$fn$;`;
}

/** The writes as the function reads them (each record already serialized as its stored JSON text). */
export function encodeWrites(writes: readonly SessionWrite[]): string {
  return JSON.stringify(
    writes.map((w) => {
      switch (w.op) {
        case 'createAgent':
        case 'updateAgent':
          return { op: w.op, id: w.agent.agent_id, doc: recordText(w.agent) };
        case 'createMessage':
        case 'updateMessage':
          return { op: w.op, id: w.agentId, n: w.message.message_id, doc: recordText(w.message) };
        case 'deleteMessages':
          return { op: w.op, id: w.agentId, n: w.fromMessageId };
        case 'createMultiAgent':
        case 'updateMultiAgent':
          return { op: w.op, id: w.multiAgent.id, doc: recordText(w.multiAgent) };
        case 'putNodeEntry':
          return { op: w.op, id: w.multiAgentId, node: w.nodeId, doc: recordText(w.entry) };
        case 'appendTransitions':
          return {
            op: w.op,
            id: w.multiAgentId,
            items: w.transitions.map((t) => ({ seq: t.seq, doc: recordText(t) })),
          };
      }
    }),
  );
}

/** The function's refusals as session errors naming the store (others pass through). */
export function stepError(error: unknown, store: string): unknown {
  const code = pgCode(error);
  const message = (error as { message?: unknown }).message;
  const options = { location: store, cause: error };
  if (code === 'SK409') return new SessionConflictError(`${String(message)} (${store})`, options);
  if (code === 'SK404') return new SessionNotFoundError(`${String(message)} (${store})`, options);
  if (code === '23503')
    return new SessionNotFoundError(
      `What the write refers to does not exist in ${store} (${String((error as { detail?: unknown }).detail ?? message)}); create it first.`,
      options,
    );
  return error;
}
