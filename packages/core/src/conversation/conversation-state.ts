import type { JsonObject } from '../types/json.js';
import type { Message } from '../types/messages.js';

/** What a session stores and restores of a conversation manager (part of every `ConversationManager`). */
export interface ConversationSessionState {
  /** Messages removed from the start so far, so sessions load only the rest. */
  readonly removedMessageCount: number;
  /** State to persist in a session (`conversation_manager_state`). */
  getState(): JsonObject;
  /** Restores persisted state; may return messages to put before the restored history (e.g. a summary). */
  restoreFromSession(state: JsonObject): Message[] | undefined;
}
