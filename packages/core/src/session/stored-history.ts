/**
 * What a restore checks and repairs in an agent's stored history before the agent sees it: rows that
 * would break the loop, a window count past the stored history, and a turn that waits for answers.
 */
import type { PersistedAgent } from './persisted-agent.js';
import { SessionCorruptError } from '../errors/session-errors.js';
import { setPendingTurn } from '../interrupt/pending-access.js';
import type { PendingTurn } from '../interrupt/pending-turn.js';
import { contentBlockProblem } from '../types/content-check.js';
import { sameMessage } from './agent-persistence-helpers.js';
import type { JsonObject } from '../types/json.js';
import type { SessionRepository } from './session-repository.js';
import type { SessionMessage } from './session-types.js';

/** Where the stored history stands: the next message id, the latest stored row, the turn taken out of it. */
export interface StoredPosition {
  nextId: number;
  latest: SessionMessage | undefined;
  detached: { turn: PendingTurn; from: number } | undefined;
}

/** Where a member agent stood when an orchestrator committed a step: its next message id and its conversation-manager state. */
export interface AgentCheckpoint {
  nextMessageId: number;
  conversation: JsonObject;
}

/** The agent record a history belongs to. */
export interface StoredAgent {
  sessionId: string;
  agentId: string;
}

/**
 * Refuses, before anything is written, stored messages that would break the loop (a content block
 * that is not an object) and a removed-message count past the stored history (the next message
 * would be stored after a gap that no restore could read).
 */
export async function checkStoredRows(
  repo: SessionRepository,
  { sessionId, agentId }: StoredAgent,
  rows: readonly SessionMessage[],
  offset: number,
): Promise<void> {
  for (const row of rows) {
    const message = row.redact_message ?? row.message;
    message.content.forEach((block, i) => {
      const problem = contentBlockProblem(block);
      if (problem === undefined) return;
      throw new SessionCorruptError(
        `Stored message ${row.message_id} of agent ${agentId} in session ${sessionId} is not valid: content[${i}] ${problem}. Fix or restore that message; nothing was changed.`,
      );
    });
  }
  if (rows.length > 0 || offset === 0) return;
  const [last, first] = await Promise.all([
    repo.readMessage(sessionId, agentId, offset - 1),
    repo.readMessage(sessionId, agentId, 0),
  ]);
  if (last === undefined && first !== undefined) {
    throw new SessionCorruptError(
      `Agent ${agentId} of session ${sessionId} says its window removed ${offset} messages (conversation_manager_state.removed_message_count), but message ${offset - 1} is not stored. Fix removed_message_count in the agent record; nothing was changed.`,
    );
  }
}

/**
 * Puts a stored turn that waits for answers back into the agent. Messages stored at or after its
 * id are either the turn completed by a resume whose record was not rewritten yet (the turn's
 * message followed by its results: the turn is over) or the turn's own message that a crash left
 * before its removal (removed now). Returns the rows the history keeps and, when the turn waits,
 * the turn taken out of it.
 */
export async function takePendingTurn(
  repo: SessionRepository,
  { sessionId, agentId }: StoredAgent,
  agent: PersistedAgent,
  waiting: { turn: PendingTurn; from: number },
  rows: SessionMessage[],
): Promise<{ rows: SessionMessage[]; detached?: { turn: PendingTurn; from: number } }> {
  const at = rows.findIndex((r) => r.message_id >= waiting.from);
  if (at < 0) {
    setPendingTurn(agent, waiting.turn);
    return { rows, detached: waiting };
  }
  const [asked, answered] = [rows[at], rows[at + 1]];
  const completed =
    asked && answered && sameMessage(asked.message, waiting.turn.message) && answered.message.role === 'user';
  if (completed) return { rows };
  await repo.deleteMessages(sessionId, agentId, waiting.from);
  setPendingTurn(agent, waiting.turn);
  return { rows: rows.slice(0, at), detached: waiting };
}
