import { createHash } from 'node:crypto';
import { isSafeMemoryId, type MemoryTarget, type Principal, principalId } from '@skein/core';

/** An id as a memory id: itself when it is one, else a hash of it (`p-<hex>`), so any principal has one. */
function asMemoryId(id: string): string {
  return isSafeMemoryId(id) ? id : `p-${createHash('sha256').update(id).digest('hex').slice(0, 32)}`;
}

/**
 * Whose memory a turn reads and writes: the principal's (the resource) in this conversation (the
 * thread). Without `authorize` every request is `'anonymous'`, so there is nobody to remember: none.
 */
export function memoryTargetOf(
  authorized: boolean,
  principal: Principal,
  conversationId: string,
): MemoryTarget | undefined {
  if (!authorized) return undefined;
  return { resource: asMemoryId(principalId(principal)), thread: asMemoryId(conversationId) };
}
