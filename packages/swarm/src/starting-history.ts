import type { Message } from '@skein/core';
import { appendMerged } from '@skein/handoffs';
import { TRANSFER_OPENER } from './handoff-note.js';

/**
 * The histories members start from (input history and items, empty messages dropped, same-role
 * neighbours merged, a user opener first when it would start with an assistant message), made
 * incrementally: the conversation handed on grows by each turn, so the merge of the last one is kept
 * and only what came since is merged onto it. Merging the whole conversation on every handoff made
 * a handoff's cost grow with the conversation. A conversation that is not the last one grown (an
 * input filter reshaped it, a new run) is merged whole.
 */
export class StartingHistory {
  /** The conversation last merged, input history and items in one list. */
  #source: Message[] = [];
  /** Its merge (without the opener). */
  #merged: Message[] = [];

  /** A fresh history for the next member (its own array: the member appends to it). */
  for(inputHistory: readonly Message[], items: readonly Message[]): Message[] {
    const source = [...inputHistory, ...items];
    const grown = startsWith(source, this.#source);
    const merged = grown ? this.#merged.slice() : [];
    for (let i = grown ? this.#source.length : 0; i < source.length; i++) appendMerged(merged, source[i] as Message);
    this.#source = source;
    this.#merged = merged;
    const start = merged.slice();
    if (start[0]?.role === 'assistant') start.unshift({ role: 'user', content: [{ text: TRANSFER_OPENER }] });
    return start;
  }
}

/** True when `list` begins with the very messages of `prefix` (the same objects, in order). */
function startsWith(list: readonly Message[], prefix: readonly Message[]): boolean {
  if (prefix.length === 0 || prefix.length > list.length) return false;
  for (let i = 0; i < prefix.length; i++) if (list[i] !== prefix[i]) return false;
  return true;
}

/** The history a node starts from, merged whole (for reading a stored run; a live run keeps a `StartingHistory`). */
export function startingMessages(inputHistory: readonly Message[], items: readonly Message[]): Message[] {
  return new StartingHistory().for(inputHistory, items);
}
