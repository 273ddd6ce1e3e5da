import type { JsonObject, Message } from '@skein/core';
import { mergeSameRole } from '@skein/handoffs';

/** Put first when a handed-over history would start with an assistant message (e.g. a nested summary). */
export const TRANSFER_OPENER =
  '(This conversation was transferred to you from another agent. What happened so far follows.)';

/** Inputs of the note a transferred-to agent receives. */
export interface NoteFields {
  from: string;
  to: string;
  message: string | undefined;
  sharedContext: Record<string, JsonObject>;
}

/**
 * The user turn that hands the conversation to the next agent: who transferred it, the message the
 * previous agent left, and the shared context so far.
 */
export function handoffNote(fields: NoteFields): Message {
  const lines = [`[Transfer] ${fields.from} handed this conversation to you (${fields.to}).`];
  if (fields.message) lines.push(`Message from ${fields.from}: ${fields.message}`);
  if (Object.keys(fields.sharedContext).length > 0)
    lines.push(`Shared context (by agent): ${JSON.stringify(fields.sharedContext)}`);
  lines.push('Continue helping the user from here.');
  return { role: 'user', content: [{ text: lines.join('\n') }] };
}

/**
 * The history a node starts from: input history and items, empty messages dropped, same-role
 * neighbours merged, and a short user opener first when it would start with an assistant message
 * (providers such as Bedrock and Anthropic require a user message first).
 */
export function startingMessages(inputHistory: readonly Message[], items: readonly Message[]): Message[] {
  const messages = mergeSameRole([...inputHistory, ...items]);
  if (messages[0]?.role === 'assistant') messages.unshift({ role: 'user', content: [{ text: TRANSFER_OPENER }] });
  return messages;
}
