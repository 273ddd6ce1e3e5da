import type { MemoryMessage } from '@skein/core';

/** A message row as the memory store reads it. */
export interface Row {
  thread: string;
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  at: string;
  embedding: Buffer | null;
}

/** The columns of a message row. */
export const COLUMNS = 'thread, seq, role, text, at, embedding';
/**
 * A search takes, for each of its terms, the newest matches of the resource, at most this many (the
 * index walks them newest first and stops), and ranks their union by BM25: recall costs the same at
 * 1k and 100k messages, a rare term (an order number) still finds its old message, and an old
 * message that matches as well as a newer one gives way to it.
 */
export const CANDIDATES = 100;
/** The same columns of the messages table aliased `m`. */
export const M_COLUMNS = 'm.thread, m.seq, m.role, m.text, m.at, m.embedding';
/** A vector as the float32 BLOB sqlite-vec compares. */
export const toBlob = (v: readonly number[]): Buffer => Buffer.from(new Float32Array(v).buffer);

/** A message row as a memory message (its BLOB back to numbers). */
export function toMessage(row: Row): MemoryMessage {
  const m: MemoryMessage = { thread: row.thread, seq: Number(row.seq), role: row.role, text: row.text, at: row.at };
  if (row.embedding)
    m.embedding = Array.from(
      new Float32Array(row.embedding.buffer, row.embedding.byteOffset, row.embedding.length / 4),
    );
  return m;
}
