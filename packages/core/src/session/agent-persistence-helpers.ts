import type { PersistedAgent } from './persisted-agent.js';
import { messageText, type Message } from '../types/messages.js';
import { encodeBytes } from './session-codec.js';

export function sameMessage(a: Message, b: Message): boolean {
  return JSON.stringify(encodeBytes(a)) === JSON.stringify(encodeBytes(b));
}

/** The initial messages not yet stored, when what is stored is a strict prefix of them (else none). */
export function missingInitialMessages(stored: readonly Message[], initial: readonly Message[]): Message[] {
  if (stored.length >= initial.length) return [];
  const same = stored.every(
    (m, i) => JSON.stringify(encodeBytes(m)) === JSON.stringify(encodeBytes(initial[i] as Message)),
  );
  return same ? initial.slice(stored.length) : [];
}

/** The agent's history without a leading summary that its conversation manager keeps in its own state (`summary_message`). */
export function withoutRestoredPrefix(agent: PersistedAgent): Message[] {
  const summary = agent.conversationManager.getState()['summary_message'] as Message | undefined;
  const first = agent.messages[0];
  const isSummary =
    summary !== undefined &&
    first !== undefined &&
    first.role === 'user' &&
    Array.isArray(summary.content) &&
    messageText(first) === messageText(summary);
  return isSummary ? agent.messages.slice(1) : agent.messages;
}
