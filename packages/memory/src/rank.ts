import type { MemoryHit, MemoryMessage, MemorySearchOptions } from '@skein/core';

/** Cosine similarity of two vectors of the same length (0 when either is all zeros). */
function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The messages nearest to `vector` by cosine similarity, best first (messages without a vector of its length are left out). */
export function rankVector(
  messages: readonly MemoryMessage[],
  vector: readonly number[],
  options: MemorySearchOptions,
): MemoryHit[] {
  const hits: MemoryHit[] = [];
  for (const m of messages) {
    if (m.thread === options.excludeThread || m.embedding?.length !== vector.length) continue;
    hits.push({ message: m, score: cosine(m.embedding, vector) });
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, options.limit);
}

const keyOf = (m: MemoryMessage): string => `${m.thread}\u0000${m.seq}`;

/**
 * Reciprocal rank fusion (k = 60) of ranked lists: each message scores the sum of 1 / (k + rank) over
 * the lists it is in; the best `limit`, best first.
 */
export function fuseRanks(lists: readonly (readonly MemoryHit[])[], limit: number, k = 60): MemoryHit[] {
  const fused = new Map<string, MemoryHit>();
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const key = keyOf(hit.message);
      const score = (fused.get(key)?.score ?? 0) + 1 / (k + rank + 1);
      fused.set(key, { message: hit.message, score });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}
