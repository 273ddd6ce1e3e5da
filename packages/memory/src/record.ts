import { type MemoryMessage, type MemoryStore, type MemoryVersionChange, type Message, nowIso } from '@skein/core';
import type { Embedder } from './embedder.js';

/** One thing said in a turn, as memory keeps it. */
export interface Said {
  role: 'user' | 'assistant';
  text: string;
}

/** The text of a message worth recalling: its text blocks (tool calls and results are left out). */
export function saidIn(message: Message): Said | undefined {
  const text = message.content
    .map((b) => ('text' in b && typeof b.text === 'string' ? b.text : ''))
    .join('')
    .trim();
  return text === '' ? undefined : { role: message.role, text };
}

/** Gives each stored message a place after every one this process stored before (time-based, increasing). */
export class SeqClock {
  #last = 0;
  next(): number {
    this.#last = Math.max(this.#last + 1, Date.now() * 1000);
    return this.#last;
  }
}

/**
 * Stores what was said in a turn: each message embedded once, here (when an embedder is given),
 * then written in one `putMessages`. A wrong embedding throws before anything is written. Gives the
 * messages stored and how the write moved the store's message version (stores that keep one).
 */
export async function recordTurn(
  store: MemoryStore,
  resource: string,
  thread: string,
  said: readonly Said[],
  clock: SeqClock,
  embedder: Embedder | undefined,
): Promise<{ messages: MemoryMessage[]; change: MemoryVersionChange | undefined }> {
  if (said.length === 0) return { messages: [], change: undefined };
  const vectors = embedder ? await embedder.embed(said.map((s) => s.text)) : undefined;
  const at = nowIso();
  const messages = said.map(
    (s, i): MemoryMessage => ({
      thread,
      seq: clock.next(),
      role: s.role,
      text: s.text,
      at,
      ...(vectors?.[i] ? { embedding: vectors[i] } : {}),
    }),
  );
  const change = await store.putMessages(resource, messages);
  return { messages, change: change ?? undefined };
}
