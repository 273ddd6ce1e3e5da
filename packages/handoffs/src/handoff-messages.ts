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
  for (const message of messages) appendMerged(out, message);
  return out;
}

/**
 * One step of `mergeSameRole`: appends `message` to `out`, dropped when empty, merged into a new
 * message when `out` ends with the same role (the messages themselves are not changed). Appending a
 * conversation's new messages to its merged past gives what merging it whole gives.
 */
export function appendMerged(out: Message[], message: Message): void {
  if (message.content.length === 0) return;
  const last = out[out.length - 1];
  if (last && last.role === message.role)
    out[out.length - 1] = { role: last.role, content: [...last.content, ...message.content] };
  else out.push(message);
}
