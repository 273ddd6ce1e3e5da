import type { JsonObject, Message } from '@skein/core';

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
