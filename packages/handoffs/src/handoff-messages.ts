import type { HandoffInputData, Message } from '@skein/core';

/**
 * The history the next agent receives from (filtered) handoff data: input history, earlier items
 * and new items in order, empty messages dropped, neighbours with the same role merged into one
 * message (providers refuse two user or two assistant messages in a row).
 */
export function handoffInputMessages(data: HandoffInputData): Message[] {
  return mergeSameRole([...data.inputHistory, ...data.preHandoffItems, ...data.newItems]);
}

/** `messages` with empty ones dropped and same-role neighbours merged (inputs are not changed). */
export function mergeSameRole(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (message.content.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === message.role)
      out[out.length - 1] = { role: last.role, content: [...last.content, ...message.content] };
    else out.push(message);
  }
  return out;
}
