/**
 * Where an agent's stored history stands (next message id, latest message, a waiting turn taken out
 * of it), as pure functions of the agent and a position: what `AgentPersistence` writes next, and what
 * an orchestrator's step keeps of a member agent.
 */
import type { PersistedAgent } from './persisted-agent.js';
import { pendingTurnOf } from '../interrupt/pending-access.js';
import type { PendingTurn } from '../interrupt/pending-turn.js';
import type { Message } from '../types/messages.js';
import { agentRecord } from './agent-record.js';
import type { AgentAtStep } from './history/history-types.js';
import type { SessionWrite } from './session-repository.js';
import { nowIso, type SessionMessage } from './session-types.js';
import type { StoredPosition } from './stored-history.js';

/** A position whose latest message may still wait to be stored (no row yet, only its id). */
type Position = Omit<StoredPosition, 'latest'> & { latest: Pick<SessionMessage, 'message' | 'message_id'> | undefined };

/**
 * Where the waiting turn `pending` is taken out of the stored history: where it already was when it
 * is the same turn, else at the latest stored message when that is the turn's message, else at the
 * next id. Undefined when no turn waits.
 */
export function detachedFor(pending: PendingTurn | undefined, at: Position): StoredPosition['detached'] {
  if (!pending) return undefined;
  if (at.detached?.turn === pending) return at.detached;
  return { turn: pending, from: at.latest?.message === pending.message ? at.latest.message_id : at.nextId };
}

/** The agent's record and next message id once the history stands at `position` (no write). */
export function snapshotAt(agent: PersistedAgent, storeId: string, position: Position): AgentAtStep {
  const pending = pendingTurnOf(agent);
  const detached = detachedFor(pending, position);
  const { state, conversation_manager_state, _internal_state } = agentRecord(agent, storeId, '', detached);
  return {
    nextMessageId: pending && detached && detached.from < position.nextId ? detached.from : position.nextId,
    record: { state, conversation_manager_state, ...(_internal_state ? { _internal_state } : {}) },
  };
}

/**
 * The writes that store the agent's record from position `from` on, pushed to `writes` (and a waiting
 * turn's removal from the stored messages); returns where the stored history then stands.
 */
export function planSync(
  agent: PersistedAgent,
  storeId: string,
  createdAt: string,
  from: StoredPosition,
  writes: SessionWrite[],
): StoredPosition {
  const pending = pendingTurnOf(agent);
  const at: StoredPosition = { ...from, detached: detachedFor(pending, from) };
  writes.push({ op: 'updateAgent', agent: agentRecord(agent, storeId, createdAt, at.detached) });
  if (pending && at.detached && at.detached.from < at.nextId) {
    writes.push({ op: 'deleteMessages', agentId: storeId, fromMessageId: at.detached.from });
    return { ...at, nextId: at.detached.from, latest: undefined };
  }
  return at;
}

/** A new stored message row for `message` at id `id`. */
export function messageRow(message: Message, id: number): SessionMessage {
  const now = nowIso();
  return { message, message_id: id, redact_message: null, created_at: now, updated_at: now };
}
