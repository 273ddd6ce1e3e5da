import { errorToolResult, type Message, type ToolResult } from '../types/messages.js';

function hasToolUse(message: Message | undefined): boolean {
  return !!message && message.content.some((b) => 'toolUse' in b);
}

function hasToolResult(message: Message | undefined): boolean {
  return !!message && message.content.some((b) => 'toolResult' in b);
}

/**
 * True when the history may start at `index` without breaking a tool pair: the first kept message is
 * not a tool-result message (its toolUse would be cut off) and not an assistant tool-use message whose
 * results are missing.
 */
export function isValidStart(messages: readonly Message[], index: number): boolean {
  const first = messages[index];
  if (!first) return index === messages.length;
  if (hasToolResult(first)) return false;
  if (hasToolUse(first) && !hasToolResult(messages[index + 1])) return false;
  return true;
}

/**
 * The user message that closes a dangling tool call: error results for every toolUse of the last
 * message that has no result. `undefined` when the history is whole.
 */
export function closeDanglingToolUses(messages: readonly Message[], reason: string): Message | undefined {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'assistant') return undefined;
  const results: ToolResult[] = [];
  for (const block of last.content)
    if ('toolUse' in block) results.push(errorToolResult(block.toolUse.toolUseId, reason));
  return results.length > 0 ? { role: 'user', content: results.map((toolResult) => ({ toolResult })) } : undefined;
}
