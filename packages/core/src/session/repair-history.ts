import { errorToolResult, type ContentBlock, type Message } from '../types/messages.js';

/** What a restored tool call that never got its result is answered with. */
const INTERRUPTED_TOOL_CALL = 'Tool call interrupted: the session ended before the tool finished.';

/** The result of {@link repairToolPairs}. */
export interface RepairedHistory {
  /** The history with every tool pair whole (same length unless a message had to be inserted). */
  messages: Message[];
  /** A user message with error results for the last message's unanswered tool uses, to append and store. */
  closing: Message | undefined;
  /** How many blocks were changed or added (0: the history was whole). */
  repairs: number;
}

const toolUseIds = (m: Message | undefined): string[] =>
  m && m.role === 'assistant' ? m.content.flatMap((b) => ('toolUse' in b ? [b.toolUse.toolUseId] : [])) : [];

/**
 * Makes a restored history usable by a model without rewriting what is stored:
 * - a toolResult whose toolUse is not in the message before it (a history that starts mid-pair, e.g.
 *   written by another tool with a trimmed window) becomes a text block saying so;
 * - a toolUse in the middle whose result is missing gets an error result in the next user message
 *   (older Strands versions could store such histories);
 * - a toolUse in the last message (the process stopped inside a tool call) is answered by `closing`.
 * Messages keep their positions, so stored message ids still line up with the restored history.
 */
export function repairToolPairs(input: readonly Message[]): RepairedHistory {
  const messages: Message[] = [];
  let repairs = 0;
  for (let i = 0; i < input.length; i++) {
    const message = input[i] as Message;
    if (message.role !== 'user') {
      messages.push(message);
      continue;
    }
    const asked = toolUseIds(input[i - 1]);
    let dropped = 0;
    const content: ContentBlock[] = message.content.map((block) => {
      if (!('toolResult' in block) || asked.includes(block.toolResult.toolUseId)) return block;
      dropped++;
      return {
        text: `[A result of tool call ${block.toolResult.toolUseId} was dropped: its tool call is not in the restored history.]`,
      };
    });
    const answered = new Set(content.flatMap((b) => ('toolResult' in b ? [b.toolResult.toolUseId] : [])));
    const missing = asked
      .filter((id) => !answered.has(id))
      .map((id) => ({ toolResult: errorToolResult(id, INTERRUPTED_TOOL_CALL) }));
    repairs += dropped + missing.length;
    messages.push(dropped + missing.length > 0 ? { role: 'user', content: [...missing, ...content] } : message);
  }
  // An assistant message followed by another assistant message: answer its tool uses in between.
  for (let i = messages.length - 2; i >= 0; i--) {
    const ids = toolUseIds(messages[i]);
    if (ids.length > 0 && messages[i + 1]?.role === 'assistant') {
      messages.splice(i + 1, 0, {
        role: 'user',
        content: ids.map((id) => ({ toolResult: errorToolResult(id, INTERRUPTED_TOOL_CALL) })),
      });
      repairs += ids.length;
    }
  }
  const last = toolUseIds(messages[messages.length - 1]);
  const closing: Message | undefined =
    last.length > 0
      ? { role: 'user', content: last.map((id) => ({ toolResult: errorToolResult(id, INTERRUPTED_TOOL_CALL) })) }
      : undefined;
  return { messages, closing, repairs: repairs + last.length };
}
