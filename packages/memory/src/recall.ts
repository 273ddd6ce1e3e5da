import {
  type LexicalIndex,
  type MemoryHit,
  type MemoryMessage,
  type MemorySearchOptions,
  type MemoryStore,
  rankLexical,
} from '@skein/core';
import type { Embedder } from './embedder.js';
import type { ResolvedMemoryOptions } from './memory-options.js';
import { fuseRanks, rankVector } from './rank.js';
import type { RecallCache } from './recall-cache.js';
import { termsOf } from './terms.js';

type Recall = NonNullable<ResolvedMemoryOptions['recall']>;

/** What recall found: groups of messages (each hit with the messages around it), best hit first. */
export type Recalled = MemoryMessage[][];

/**
 * Searches the resource's other conversations for `query`: lexically (the store's index, or BM25 in
 * memory), by vector (the store's, or cosine in memory), or both fused by reciprocal rank; then reads
 * `before`/`after` messages around each hit and merges groups that overlap. With a `cache` (and a
 * store that keeps a message version), lexical search and the messages around hits come from this
 * process's index of the resource, current with the store.
 */
export async function recall(
  store: MemoryStore,
  resource: string,
  thread: string,
  query: string,
  options: Recall,
  embedder: Embedder | undefined,
  cache: RecallCache | undefined,
): Promise<Recalled> {
  const search: MemorySearchOptions = { limit: options.topK * 2, excludeThread: thread };
  let all: Promise<MemoryMessage[]> | undefined;
  const everything = (): Promise<MemoryMessage[]> => (all ??= store.listMessages(resource));
  const lists: MemoryHit[][] = [];
  let index: LexicalIndex | undefined;
  if (options.mode !== 'vector') {
    const terms = termsOf(query);
    index = await cache?.index(resource);
    if (terms.length > 0)
      lists.push(
        index
          ? index.search(terms, search)
          : store.searchText
            ? await store.searchText(resource, terms, search)
            : rankLexical(await everything(), terms, search),
      );
  }
  if (options.mode !== 'lexical' && embedder && query.trim() !== '') {
    const [vector] = await embedder.embed([query]);
    if (vector)
      lists.push(
        store.searchVector
          ? await store.searchVector(resource, vector, search)
          : rankVector(await everything(), vector, search),
      );
  }
  const hits = lists.length === 1 ? (lists[0] ?? []).slice(0, options.topK) : fuseRanks(lists, options.topK);
  return groupsAround(store, resource, hits, options, index);
}

async function groupsAround(
  store: MemoryStore,
  resource: string,
  hits: readonly MemoryHit[],
  options: Recall,
  index: LexicalIndex | undefined,
): Promise<Recalled> {
  const around = (m: MemoryMessage): MemoryMessage[] | Promise<MemoryMessage[]> => {
    const held = index?.around(m.thread, m.seq, options.before, options.after) ?? [];
    return held.length > 0 ? held : store.readAround(resource, m.thread, m.seq, options.before, options.after);
  };
  const groups =
    options.before === 0 && options.after === 0
      ? hits.map((h) => [h.message])
      : await Promise.all(hits.map((h) => around(h.message)));
  const seen = new Set<string>();
  const merged: Recalled = [];
  for (const group of groups) {
    const fresh = group.filter((m) => !seen.has(`${m.thread}\u0000${m.seq}`));
    for (const m of fresh) seen.add(`${m.thread}\u0000${m.seq}`);
    if (fresh.length > 0) merged.push(fresh);
  }
  return merged;
}

/** The outcome of work raced against a time limit. */
export type Capped<T> = { done: true; value: T } | { done: false; reason: string };

/** Runs `work` for at most `ms`: what it gave, or why not (it overran, or failed). What overran goes on unobserved. */
export async function capped<T>(work: Promise<T>, ms: number): Promise<Capped<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Capped<T>>((resolve) => {
    timer = setTimeout(() => resolve({ done: false, reason: `it took longer than ${ms} ms` }), ms);
  });
  const outcome = work.then(
    (value): Capped<T> => ({ done: true, value }),
    (error: unknown): Capped<T> => ({
      done: false,
      reason: `it failed: ${error instanceof Error ? error.message : String(error)}`,
    }),
  );
  try {
    return await Promise.race([outcome, late]);
  } finally {
    clearTimeout(timer);
  }
}
