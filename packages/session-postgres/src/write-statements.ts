import { recordText, type SessionWrite } from '@skein/core';

/**
 * One SQL statement of a single-call write, and what it means when it touches no row: the record
 * `what` names already exists (a create), does not exist (an update), or the transition is out of
 * order (an append).
 */
export interface WriteStatement {
  sql: string;
  params: unknown[];
  noRow?: { refusal: 'exists' | 'missing' | 'order'; what: string };
}

type Table = (name: string) => string;
type Write<Op extends SessionWrite['op']> = Extract<SessionWrite, { op: Op }>;

/** `createAgent`, `updateAgent`. */
function agentStatement(t: Table, s: string, w: Write<'createAgent' | 'updateAgent'>): WriteStatement {
  const what = `Agent ${w.agent.agent_id} of session ${s}`;
  const params = [s, w.agent.agent_id, recordText(w.agent)];
  return w.op === 'createAgent'
    ? {
        sql: `INSERT INTO ${t('skein_agents')} VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        params,
        noRow: { refusal: 'exists', what },
      }
    : {
        sql: `UPDATE ${t('skein_agents')} SET doc = $3 WHERE session_id = $1 AND agent_id = $2`,
        params,
        noRow: { refusal: 'missing', what },
      };
}

/** `createMessage`, `updateMessage`, `deleteMessages`. */
function messageStatement(
  t: Table,
  s: string,
  w: Write<'createMessage' | 'updateMessage' | 'deleteMessages'>,
): WriteStatement {
  if (w.op === 'deleteMessages')
    return {
      sql: `DELETE FROM ${t('skein_messages')} WHERE session_id = $1 AND agent_id = $2 AND message_id >= $3`,
      params: [s, w.agentId, w.fromMessageId],
    };
  const what = `Message ${w.message.message_id} of agent ${w.agentId} in session ${s}`;
  const params = [s, w.agentId, w.message.message_id, recordText(w.message)];
  return w.op === 'createMessage'
    ? {
        sql: `INSERT INTO ${t('skein_messages')} VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        params,
        noRow: { refusal: 'exists', what },
      }
    : {
        sql: `UPDATE ${t('skein_messages')} SET doc = $4 WHERE session_id = $1 AND agent_id = $2 AND message_id = $3`,
        params,
        noRow: { refusal: 'missing', what },
      };
}

/** `createMultiAgent`, `updateMultiAgent`, `putNodeEntry`. */
function orchestratorStatement(
  t: Table,
  s: string,
  w: Write<'createMultiAgent' | 'updateMultiAgent' | 'putNodeEntry'>,
): WriteStatement {
  if (w.op === 'putNodeEntry')
    return {
      sql: `INSERT INTO ${t('skein_nodes')} VALUES ($1, $2, $3, $4) ON CONFLICT (session_id, multi_agent_id, node_id) DO UPDATE SET doc = excluded.doc`,
      params: [s, w.multiAgentId, w.nodeId, recordText(w.entry)],
    };
  const what = `Orchestrator ${w.multiAgent.id} of session ${s}`;
  const params = [s, w.multiAgent.id, recordText(w.multiAgent)];
  return w.op === 'createMultiAgent'
    ? {
        sql: `INSERT INTO ${t('skein_multi_agents')} VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        params,
        noRow: { refusal: 'exists', what },
      }
    : {
        sql: `UPDATE ${t('skein_multi_agents')} SET doc = $3 WHERE session_id = $1 AND multi_agent_id = $2`,
        params,
        noRow: { refusal: 'missing', what },
      };
}

/** `appendTransitions`: one insert per transition, each only when it carries the next number. */
function transitionStatements(t: Table, s: string, w: Write<'appendTransitions'>): WriteStatement[] {
  return w.transitions.map((tr) => ({
    sql: `INSERT INTO ${t('skein_transitions')} SELECT $1::text, $2::text, $3::bigint, $4::text WHERE $3::bigint = (SELECT COALESCE(MAX(seq) + 1, 0) FROM ${t('skein_transitions')} WHERE session_id = $1 AND multi_agent_id = $2)`,
    params: [s, w.multiAgentId, tr.seq, recordText(tr)],
    noRow: { refusal: 'order', what: `Transition ${tr.seq} of orchestrator ${w.multiAgentId} in session ${s}` },
  }));
}

/** The statements a write runs, in order, in tables named by `t`, for session `s`. */
export function writeStatements(t: Table, s: string, w: SessionWrite): WriteStatement[] {
  switch (w.op) {
    case 'createAgent':
    case 'updateAgent':
      return [agentStatement(t, s, w)];
    case 'createMessage':
    case 'updateMessage':
    case 'deleteMessages':
      return [messageStatement(t, s, w)];
    case 'createMultiAgent':
    case 'updateMultiAgent':
    case 'putNodeEntry':
      return [orchestratorStatement(t, s, w)];
    case 'appendTransitions':
      return transitionStatements(t, s, w);
  }
}
