import { SessionConflictError, SessionNotFoundError } from '../../errors/session-errors.js';
import type { SessionWrite } from '../session-repository.js';
import type { Session } from '../session-types.js';
import { recordText } from '../stored-records.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlStatements } from './sql-statements.js';

/** A write a SQL store runs in one transaction: a batch's write, or a call that has no batch form. */
export type SqlWrite =
  | SessionWrite
  | { op: 'createSession'; session: Session }
  | { op: 'deleteSession' }
  | { op: 'deleteMultiAgent'; multiAgentId: string };

/** Why a statement that touches (or, a parent check, finds) no row refuses the write. */
export type SqlRefusal = 'exists' | 'missing' | 'order';

/** One statement of a write, and what it means when it touches no row (`what`: the record, in words). */
export interface SqlStep {
  sql: string;
  params: unknown[];
  noRow?: { refusal: SqlRefusal; what: string };
  /** What the write needs to exist, where a foreign key refuses it (the dialect has them). */
  parent?: string;
}

/** What a write needs to exist: its session, agent or orchestrator, in words (`undefined`: nothing). */
function parentOf(write: SqlWrite, sessionId: string): string | undefined {
  switch (write.op) {
    case 'createAgent':
    case 'createMultiAgent':
    case 'deleteMultiAgent':
      return `Session ${sessionId}`;
    case 'createMessage':
    case 'deleteMessages':
      return `Agent ${write.agentId} of session ${sessionId}`;
    case 'putNodeEntry':
    case 'appendTransitions':
      return `Orchestrator ${write.multiAgentId} of session ${sessionId}`;
    default:
      return undefined;
  }
}

/** The parent check of a write, for a dialect whose tables have no foreign keys. */
function parentCheck(st: SqlStatements, s: string, write: SqlWrite): SqlStep[] {
  const what = parentOf(write, s);
  if (what === undefined) return [];
  const noRow = { refusal: 'missing' as const, what };
  if ('agentId' in write) return [{ sql: st.hasAgent, params: [s, write.agentId], noRow }];
  if ('multiAgentId' in write && write.op !== 'deleteMultiAgent')
    return [{ sql: st.hasMultiAgent, params: [s, write.multiAgentId], noRow }];
  return [{ sql: st.hasSession, params: [s], noRow }];
}

/** The statement that creates (it refuses a record that exists) or updates (one that does not) the record `what`. */
function createOrUpdate(
  create: boolean,
  [insert, update, params]: readonly [string, string, readonly unknown[]],
  what: string,
): SqlStep {
  return {
    sql: create ? insert : update,
    params: [...params],
    noRow: { refusal: create ? 'exists' : 'missing', what },
  };
}

/** The statements that apply `write` to session `s`, in order, with the checks of the single calls. */
export function sqlSteps(st: SqlStatements, dialect: SqlDialect, s: string, write: SqlWrite): SqlStep[] {
  const steps = dialect.foreignKeys ? [] : parentCheck(st, s, write);
  switch (write.op) {
    case 'createSession':
      steps.push({
        sql: st.insertSession,
        params: [s, recordText(write.session)],
        noRow: { refusal: 'exists', what: `Session ${s}` },
      });
      break;
    case 'deleteSession':
      for (const sql of st.deleteSession) steps.push({ sql, params: [s] });
      break;
    case 'createAgent':
    case 'updateAgent': {
      const { agent } = write;
      const record = [st.insertAgent, st.updateAgent, [s, agent.agent_id, recordText(agent)]] as const;
      steps.push(createOrUpdate(write.op === 'createAgent', record, `Agent ${agent.agent_id} of session ${s}`));
      break;
    }
    case 'createMessage':
    case 'updateMessage': {
      const { message, agentId } = write;
      const params = [s, agentId, message.message_id, recordText(message)];
      const what = `Message ${message.message_id} of agent ${agentId} in session ${s}`;
      steps.push(createOrUpdate(write.op === 'createMessage', [st.insertMessage, st.updateMessage, params], what));
      break;
    }
    case 'deleteMessages':
      steps.push({ sql: st.deleteMessages, params: [s, write.agentId, write.fromMessageId] });
      break;
    case 'createMultiAgent':
    case 'updateMultiAgent': {
      const { multiAgent } = write;
      const record = [st.insertMultiAgent, st.updateMultiAgent, [s, multiAgent.id, recordText(multiAgent)]] as const;
      const what = `Orchestrator ${multiAgent.id} of session ${s}`;
      steps.push(createOrUpdate(write.op === 'createMultiAgent', record, what));
      break;
    }
    case 'deleteMultiAgent':
      for (const sql of st.deleteMultiAgent) steps.push({ sql, params: [s, write.multiAgentId] });
      break;
    case 'putNodeEntry':
      steps.push({ sql: st.putNode, params: [s, write.multiAgentId, write.nodeId, recordText(write.entry)] });
      break;
    case 'appendTransitions':
      for (const t of write.transitions)
        steps.push({
          sql: st.insertTransition,
          params: [s, write.multiAgentId, t.seq, recordText(t)],
          noRow: {
            refusal: 'order',
            what: `Transition ${t.seq} of orchestrator ${write.multiAgentId} in session ${s}`,
          },
        });
      break;
  }
  const parent = dialect.foreignKeys ? parentOf(write, s) : undefined;
  if (parent !== undefined) for (const step of steps) step.parent = parent;
  return steps;
}

/** The error of a statement that touched no row (`noRow`), naming `store`. */
export function sqlRefusal(noRow: { refusal: SqlRefusal; what: string }, store: string, cause?: unknown): Error {
  const options = { location: store, ...(cause === undefined ? {} : { cause }) };
  const { refusal, what } = noRow;
  if (refusal === 'exists')
    return new SessionConflictError(`${what} already exists in ${store}; nothing was overwritten.`, options);
  if (refusal === 'missing')
    return new SessionNotFoundError(`${what} does not exist in ${store}; create it first.`, options);
  return new SessionConflictError(
    `${what} is out of order or already stored in ${store}; nothing was written.`,
    options,
  );
}
