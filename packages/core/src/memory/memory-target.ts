import { MemoryError } from '../errors/memory-errors.js';

/**
 * Whose memory an invocation reads and writes: the resource (a customer, a user) and, optionally,
 * the thread (the conversation). `invoke(prompt, { memory: { resource: 'customer-7', thread: 'c-1' } })`.
 */
export interface MemoryTarget {
  /** The customer (or user, tenant...) the memory belongs to. Letters, digits and `_ . @ = + -`. */
  readonly resource: string;
  /** The conversation; recall searches the resource's other threads. Default `'default'`. */
  readonly thread?: string | undefined;
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.@=+-]{0,199}$/;

/** True when `id` is safe as a part of a path, key or table value (the rule session ids follow). */
export function isSafeMemoryId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_ID.test(id) && !id.includes('..');
}

/** Checks a resource, thread or document key before anything is read or written: a `MemoryError` otherwise. */
export function checkMemoryId(id: unknown, what: string): asserts id is string {
  if (isSafeMemoryId(id)) return;
  const shown = String(JSON.stringify(id) ?? typeof id);
  throw new MemoryError(
    `Invalid memory ${what} ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown}: use 1-200 characters from A-Z a-z 0-9 _ . @ = + - starting with a letter or digit, without "..", so it cannot leave the store. Nothing was read or written.`,
    {},
    'memory_invalid_id',
  );
}
