/**
 * An agent's record in a session, both ways: what is written for an agent (its state, its
 * conversation manager's state, and a turn waiting for answers with where it was stored), and the
 * waiting turn read back from a stored record.
 */
import type { PersistedAgent } from './persisted-agent.js';
import { SessionCorruptError } from '../errors/session-errors.js';
import { pendingTurnOf } from '../interrupt/pending-access.js';
import { pendingTurnFromJson, pendingTurnToJson, type PendingTurn } from '../interrupt/pending-turn.js';
import type { JsonObject } from '../types/json.js';
import { nowIso, type SessionAgent } from './session-types.js';

/** The record of `agent` stored under `agentId`; a detached pending turn still the agent's is kept in it. */
export function agentRecord(
  agent: PersistedAgent,
  agentId: string,
  createdAt: string,
  detached: { turn: PendingTurn; from: number } | undefined,
): SessionAgent {
  const record: SessionAgent = {
    agent_id: agentId,
    state: agent.state.get(),
    conversation_manager_state: agent.conversationManager.getState(),
    created_at: createdAt,
    updated_at: nowIso(),
  };
  if (detached && pendingTurnOf(agent) === detached.turn) {
    record._internal_state = {
      interrupt_state: { ...pendingTurnToJson(detached.turn), stored_from: detached.from } as JsonObject,
    };
  }
  return record;
}

/** The turn waiting for answers that a stored agent record holds, if any. */
export function storedPending(stored: SessionAgent, where: string): { turn: PendingTurn; from: number } | undefined {
  const state = stored._internal_state?.['interrupt_state'];
  const turn = pendingTurnFromJson(state);
  const from = (state as { stored_from?: unknown } | undefined)?.stored_from;
  if (turn && typeof from === 'number') return { turn, from };
  // skein always writes stored_from with a waiting turn; without it (Strands' own interrupt_state) there is none.
  if (typeof state === 'object' && state !== null && 'stored_from' in state) {
    throw new SessionCorruptError(
      `${where} holds a turn waiting for answers (_internal_state.interrupt_state) that is not valid; fix or remove it (the answers it waits for are lost then). Nothing was changed.`,
    );
  }
  return undefined;
}
