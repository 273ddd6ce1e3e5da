import type { Agent } from '../agent/agent.js';
import { SessionCorruptError } from '../errors/session-errors.js';
import { pendingTurnFromJson, type PendingTurn } from '../interrupt/pending-turn.js';
import { messageText, type Message } from '../types/messages.js';
import { encodeBytes } from './session-codec.js';
import type { SessionAgent } from './session-types.js';

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
export function withoutRestoredPrefix(agent: Agent): Message[] {
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
