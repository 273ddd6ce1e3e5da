import type { ConversationSessionState } from '../conversation/conversation-state.js';
import type { AgentState } from '../state/agent-state.js';
import type { Message } from '../types/messages.js';

/**
 * What session persistence reads and restores of an agent: its history, its state, and what its
 * conversation manager stores (an `Agent` is one; its waiting turn goes through `pending-access`).
 */
export interface PersistedAgent {
  messages: Message[];
  readonly state: AgentState;
  readonly conversationManager: ConversationSessionState;
}
