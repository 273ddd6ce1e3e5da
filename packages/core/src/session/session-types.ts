import type { JsonObject } from '../types/json.js';
import type { Message } from '../types/messages.js';

/**
 * Session data models, with the field names of Strands Agents' session files, so that a session
 * written by either opens in the other. Timestamps are ISO 8601 strings.
 */

/** The top-level container of a session. */
export interface Session {
  session_id: string;
  /** `AGENT` for a standalone agent, `MULTI_AGENT` for an orchestrator. */
  session_type: 'AGENT' | 'MULTI_AGENT';
  created_at: string;
  updated_at: string;
}

/** An agent inside a session: its state and its conversation manager's state. */
export interface SessionAgent {
  agent_id: string;
  state: JsonObject;
  conversation_manager_state: JsonObject;
  /**
   * skein's (and Strands') internal agent state: `interrupt_state` holds a turn waiting for answers
   * (its assistant message, the results that ran, the interrupts) and `stored_from`, the message id
   * it was removed from. Absent when nothing waits.
   */
  _internal_state?: JsonObject;
  created_at: string;
  updated_at: string;
}

/** One message of an agent's history, with its optional redacted replacement. */
export interface SessionMessage {
  /** The message (bytes as `Uint8Array` in memory; repositories encode them). */
  message: Message;
  /** The message's index in the agent's full history (removed messages included). */
  message_id: number;
  redact_message: Message | null;
  created_at: string;
  updated_at: string;
}

/** An orchestrator's persisted state (`multi_agent.json`). */
export interface SessionMultiAgent {
  id: string;
  /** `graph`, `swarm`, or another orchestrator's kind. */
  type: string;
  /** The orchestrator's own state; kept small (per-node data lives in node entries). */
  state: JsonObject;
  created_at: string;
  updated_at: string;
}

/** One step of an orchestrator's node-transition history (append-only). */
export interface NodeTransition {
  /** 0, 1, 2... in the order they happened. */
  seq: number;
  /** The node control came from (`null` at the start). */
  from: string | null;
  /** The node control went to (`null` at the end). */
  to: string | null;
  /** `start`, `edge`, `handoff`, `complete`, `fail`, `resume`, ... */
  kind: string;
  /** Why, in words: the condition, the handoff message, the failure. */
  reason: string;
  /** Structured facts about the step (a handoff: its message, the shared-context keys, history sizes). */
  details?: JsonObject;
  /** ISO 8601 timestamp. */
  at: string;
}

/** Paging of `listMessages`. */
export interface ListMessagesOptions {
  /** At most this many messages. */
  limit?: number;
  /** Skip the first `offset` message ids. */
  offset?: number;
}

/** The current time as an ISO 8601 string. */
export function nowIso(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

// The last timestamp made: stores and orchestrators stamp many records in the same millisecond.
let lastMs = Number.NaN;
let lastIso = '';
