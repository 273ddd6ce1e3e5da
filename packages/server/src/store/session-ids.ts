/**
 * Where a conversation lives in the store. With `authorize`, conversation ids live in a namespace per
 * principal: the session id is `<first 20 hex digits of sha256(principal id)>-<conversation id>`, so
 * two principals may use the same id, and another principal's id (taken or free) is just a new
 * conversation of one's own: nothing tells them apart. Without `authorize` there is one principal
 * (`anonymous`) and the session id is the conversation id. The server's own sessions (a principal's
 * index, `skein-index-<hash>`) start with `skein-`, a prefix no conversation id may take.
 */
import { createHash } from 'node:crypto';

/** Conversation ids may not start with this: the server's own sessions do. */
export const RESERVED_PREFIX = /^skein-/i;

/** The session id of `conversationId` of principal `owner` (`namespaced`: the server has `authorize`). */
export function conversationSessionId(namespaced: boolean, owner: string, conversationId: string): string {
  if (!namespaced) return conversationId;
  return `${createHash('sha256').update(owner).digest('hex').slice(0, 20)}-${conversationId}`;
}
