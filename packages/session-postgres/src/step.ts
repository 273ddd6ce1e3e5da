/**
 * The one-round-trip write: a writer that holds a session's lease sends a whole write (a single call
 * or a step's batch) as one statement, `SELECT skein_step(...)`, a PL/pgSQL function that locks the
 * lease row, checks it still names this writer with its generation, marks it with the batch id and
 * applies the writes with the checks of the single calls, all or none (one statement is one
 * transaction). It answers `unheld` when the lease is not this writer's (the caller then takes the
 * full path that claims or reports the conflict) and `done` when the batch id is there already (a
 * retry of a write whose answer was lost).
 */
import { SessionConflictError, SessionNotFoundError, type SessionWrite } from '@skein/core';
import { toDoc } from './documents.js';
import { pgCode } from './errors.js';

/** The function, in schema `s` (quoted). */
export function stepFunctionSql(s: string): string {
  const conflict = (what: string) =>
    `RAISE EXCEPTION USING ERRCODE = 'SK409', MESSAGE = format(${what}) || ' already exists; nothing was overwritten.'`;
  const missing = (what: string) =>
    `RAISE EXCEPTION USING ERRCODE = 'SK404', MESSAGE = format(${what}) || ' does not exist; create it first.'`;
  return `
CREATE OR REPLACE FUNCTION ${s}.skein_step(p_session text, p_owner text, p_generation bigint, p_batch text, p_ttl_ms bigint, p_writes jsonb)
RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  l record;
  w jsonb;
  t jsonb;
  next_seq bigint;
BEGIN
  SELECT owner, generation, last_batch INTO l FROM ${s}.skein_leases WHERE session_id = p_session FOR UPDATE;
  IF NOT FOUND OR l.owner IS DISTINCT FROM p_owner THEN RETURN 'unheld'; END IF;
  IF l.last_batch = p_batch THEN RETURN 'done'; END IF;
  IF l.generation <> p_generation THEN RETURN 'unheld'; END IF;
  UPDATE ${s}.skein_leases SET last_batch = p_batch,
    expires_at = (extract(epoch from clock_timestamp()) * 1000)::bigint + p_ttl_ms WHERE session_id = p_session;
  FOR w IN SELECT value FROM jsonb_array_elements(p_writes) LOOP
    CASE w->>'op'
    WHEN 'createAgent' THEN
      INSERT INTO ${s}.skein_agents VALUES (p_session, w->>'id', w->>'doc') ON CONFLICT DO NOTHING;
      IF NOT FOUND THEN ${conflict(`'Agent %s of session %s', w->>'id', p_session`)}; END IF;
    WHEN 'updateAgent' THEN
      UPDATE ${s}.skein_agents SET doc = w->>'doc' WHERE session_id = p_session AND agent_id = w->>'id';
      IF NOT FOUND THEN ${missing(`'Agent %s of session %s', w->>'id', p_session`)}; END IF;
    WHEN 'createMessage' THEN
      INSERT INTO ${s}.skein_messages VALUES (p_session, w->>'id', (w->>'n')::bigint, w->>'doc') ON CONFLICT DO NOTHING;
      IF NOT FOUND THEN ${conflict(`'Message %s of agent %s in session %s', w->>'n', w->>'id', p_session`)}; END IF;
    WHEN 'updateMessage' THEN
      UPDATE ${s}.skein_messages SET doc = w->>'doc'
        WHERE session_id = p_session AND agent_id = w->>'id' AND message_id = (w->>'n')::bigint;
      IF NOT FOUND THEN ${missing(`'Message %s of agent %s in session %s', w->>'n', w->>'id', p_session`)}; END IF;
    WHEN 'deleteMessages' THEN
      DELETE FROM ${s}.skein_messages WHERE session_id = p_session AND agent_id = w->>'id' AND message_id >= (w->>'n')::bigint;
    WHEN 'createMultiAgent' THEN
      INSERT INTO ${s}.skein_multi_agents VALUES (p_session, w->>'id', w->>'doc') ON CONFLICT DO NOTHING;
      IF NOT FOUND THEN ${conflict(`'Orchestrator %s of session %s', w->>'id', p_session`)}; END IF;
    WHEN 'updateMultiAgent' THEN
      UPDATE ${s}.skein_multi_agents SET doc = w->>'doc' WHERE session_id = p_session AND multi_agent_id = w->>'id';
      IF NOT FOUND THEN ${missing(`'Orchestrator %s of session %s', w->>'id', p_session`)}; END IF;
    WHEN 'putNodeEntry' THEN
      INSERT INTO ${s}.skein_nodes VALUES (p_session, w->>'id', w->>'node', w->>'doc')
        ON CONFLICT (session_id, multi_agent_id, node_id) DO UPDATE SET doc = excluded.doc;
    WHEN 'appendTransitions' THEN
      SELECT COALESCE(MAX(seq) + 1, 0) INTO next_seq FROM ${s}.skein_transitions
        WHERE session_id = p_session AND multi_agent_id = w->>'id';
      FOR t IN SELECT value FROM jsonb_array_elements(w->'items') LOOP
        IF (t->>'seq')::bigint <> next_seq THEN
          RAISE EXCEPTION USING ERRCODE = 'SK409', MESSAGE = format('Transition %s of orchestrator %s in session %s is out of order or already stored (expected %s); nothing was written.', t->>'seq', w->>'id', p_session, next_seq);
        END IF;
        INSERT INTO ${s}.skein_transitions VALUES (p_session, w->>'id', next_seq, t->>'doc');
        next_seq := next_seq + 1;
      END LOOP;
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
          return { op: w.op, id: w.agent.agent_id, doc: toDoc(w.agent) };
        case 'createMessage':
        case 'updateMessage':
          return { op: w.op, id: w.agentId, n: w.message.message_id, doc: toDoc(w.message) };
        case 'deleteMessages':
          return { op: w.op, id: w.agentId, n: w.fromMessageId };
        case 'createMultiAgent':
        case 'updateMultiAgent':
          return { op: w.op, id: w.multiAgent.id, doc: toDoc(w.multiAgent) };
        case 'putNodeEntry':
          return { op: w.op, id: w.multiAgentId, node: w.nodeId, doc: toDoc(w.entry) };
        case 'appendTransitions':
          return { op: w.op, id: w.multiAgentId, items: w.transitions.map((t) => ({ seq: t.seq, doc: toDoc(t) })) };
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
