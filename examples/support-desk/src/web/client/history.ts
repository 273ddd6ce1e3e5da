/**
 * A stored conversation (`GET /v1/{kind}/desk/conversations/{id}`) as chat messages, for a page that
 * opens it again: each turn's message and final answer (the live parts, who spoke and the tools, are
 * in the inspector), and what the last one waits for.
 */
import type { DeskMessage } from './desk-message.js';

/** The parts of the server's conversation view the page reads. */
export interface ConversationView {
  status: string;
  turns: { turn: number; status: string; prompt?: string; text?: string; failureReason?: string }[];
  interrupts: { id: string; name: string; toolUse?: { name: string; input: unknown } }[];
}

const ANSWERS = /^\(answers: /;

export function historyMessages(view: ConversationView): DeskMessage[] {
  const messages: DeskMessage[] = [];
  const finished = view.turns.filter((t) => t.status !== 'running');
  for (const turn of finished) {
    const prompt = turn.prompt ?? '';
    if (prompt && !ANSWERS.test(prompt))
      messages.push({ id: `user-${turn.turn}`, role: 'user', parts: [{ type: 'text', text: prompt }] });
    const parts: DeskMessage['parts'] = [];
    if (turn.text) parts.push({ type: 'text', text: turn.text });
    if (turn.status !== 'completed' && turn.status !== 'interrupted')
      parts.push({
        type: 'data-skein-result',
        data: {
          turn: turn.turn,
          status: turn.status,
          ...(turn.failureReason ? { failureReason: turn.failureReason } : {}),
        },
      });
    if (turn === finished.at(-1) && view.status === 'interrupted')
      for (const interrupt of view.interrupts)
        parts.push({
          type: 'data-desk-waiting',
          data: interrupt.toolUse ? { tool: interrupt.toolUse.name, input: interrupt.toolUse.input } : {},
        });
    if (parts.length > 0) messages.push({ id: `turn-${turn.turn}`, role: 'assistant', parts });
  }
  return messages;
}
