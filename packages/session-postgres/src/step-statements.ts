/**
 * The statements of the one-round-trip write function (`skein_step`, see step.ts), in schema `s`
 * (quoted): the lease check, then one `WHEN` branch per kind of write, each with the checks of the
 * single call (a create that finds its row is `SK409`, an update that finds none is `SK404`).
 */

const conflict = (what: string) =>
  `RAISE EXCEPTION USING ERRCODE = 'SK409', MESSAGE = format(${what}) || ' already exists; nothing was overwritten.'`;
const missing = (what: string) =>
  `RAISE EXCEPTION USING ERRCODE = 'SK404', MESSAGE = format(${what}) || ' does not exist; create it first.'`;

/** Locks the lease row: `unheld` unless it names this writer and generation, `done` for a batch already applied. */
export function leaseCheckSql(s: string): string {
  return `  SELECT owner, generation, last_batch INTO l FROM ${s}.skein_leases WHERE session_id = p_session FOR UPDATE;
  IF NOT FOUND OR l.owner IS DISTINCT FROM p_owner THEN RETURN 'unheld'; END IF;
  IF l.last_batch = p_batch THEN RETURN 'done'; END IF;
  IF l.generation <> p_generation THEN RETURN 'unheld'; END IF;
  UPDATE ${s}.skein_leases SET last_batch = p_batch,
    expires_at = (extract(epoch from clock_timestamp()) * 1000)::bigint + p_ttl_ms WHERE session_id = p_session;`;
}

/** `createAgent`, `updateAgent`. */
export function agentWritesSql(s: string): string {
  return `    WHEN 'createAgent' THEN
      INSERT INTO ${s}.skein_agents VALUES (p_session, w->>'id', w->>'doc') ON CONFLICT DO NOTHING;
      IF NOT FOUND THEN ${conflict(`'Agent %s of session %s', w->>'id', p_session`)}; END IF;
    WHEN 'updateAgent' THEN
      UPDATE ${s}.skein_agents SET doc = w->>'doc' WHERE session_id = p_session AND agent_id = w->>'id';
      IF NOT FOUND THEN ${missing(`'Agent %s of session %s', w->>'id', p_session`)}; END IF;`;
}

/** `createMessage`, `updateMessage`, `deleteMessages`. */
export function messageWritesSql(s: string): string {
  return `    WHEN 'createMessage' THEN
      INSERT INTO ${s}.skein_messages VALUES (p_session, w->>'id', (w->>'n')::bigint, w->>'doc') ON CONFLICT DO NOTHING;
      IF NOT FOUND THEN ${conflict(`'Message %s of agent %s in session %s', w->>'n', w->>'id', p_session`)}; END IF;
    WHEN 'updateMessage' THEN
      UPDATE ${s}.skein_messages SET doc = w->>'doc'
        WHERE session_id = p_session AND agent_id = w->>'id' AND message_id = (w->>'n')::bigint;
      IF NOT FOUND THEN ${missing(`'Message %s of agent %s in session %s', w->>'n', w->>'id', p_session`)}; END IF;
    WHEN 'deleteMessages' THEN
      DELETE FROM ${s}.skein_messages WHERE session_id = p_session AND agent_id = w->>'id' AND message_id >= (w->>'n')::bigint;`;
}

/** `createMultiAgent`, `updateMultiAgent`, `putNodeEntry`. */
export function orchestratorWritesSql(s: string): string {
  return `    WHEN 'createMultiAgent' THEN
      INSERT INTO ${s}.skein_multi_agents VALUES (p_session, w->>'id', w->>'doc') ON CONFLICT DO NOTHING;
      IF NOT FOUND THEN ${conflict(`'Orchestrator %s of session %s', w->>'id', p_session`)}; END IF;
    WHEN 'updateMultiAgent' THEN
      UPDATE ${s}.skein_multi_agents SET doc = w->>'doc' WHERE session_id = p_session AND multi_agent_id = w->>'id';
      IF NOT FOUND THEN ${missing(`'Orchestrator %s of session %s', w->>'id', p_session`)}; END IF;
    WHEN 'putNodeEntry' THEN
      INSERT INTO ${s}.skein_nodes VALUES (p_session, w->>'id', w->>'node', w->>'doc')
        ON CONFLICT (session_id, multi_agent_id, node_id) DO UPDATE SET doc = excluded.doc;`;
}

/** `appendTransitions`: each transition must carry the next number, or nothing is written. */
export function transitionWritesSql(s: string): string {
  return `    WHEN 'appendTransitions' THEN
      SELECT COALESCE(MAX(seq) + 1, 0) INTO next_seq FROM ${s}.skein_transitions
        WHERE session_id = p_session AND multi_agent_id = w->>'id';
      FOR t IN SELECT value FROM jsonb_array_elements(w->'items') LOOP
        IF (t->>'seq')::bigint <> next_seq THEN
          RAISE EXCEPTION USING ERRCODE = 'SK409', MESSAGE = format('Transition %s of orchestrator %s in session %s is out of order or already stored (expected %s); nothing was written.', t->>'seq', w->>'id', p_session, next_seq);
        END IF;
        INSERT INTO ${s}.skein_transitions VALUES (p_session, w->>'id', next_seq, t->>'doc');
        next_seq := next_seq + 1;
      END LOOP;`;
}
