import type { MemoryHit, MemoryMessage, MemorySearchOptions } from '@skein/core';
import { stem } from './terms.js';

const tokens = (text: string): string[] => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);

/**
 * Ranks `messages` for `terms` with BM25 (k1 1.2, b 0.75), best first: the lexical search of stores
 * without an index of their own (in memory, files, S3).
 */
export function rankLexical(
  messages: readonly MemoryMessage[],
  terms: readonly string[],
  options: MemorySearchOptions,
): MemoryHit[] {
  const wanted = [...new Set(terms.map(stem))];
  const docs = messages.filter((m) => m.thread !== options.excludeThread).map((m) => ({ m, t: tokens(m.text) }));
  if (docs.length === 0 || wanted.length === 0) return [];
  const avg = docs.reduce((n, d) => n + d.t.length, 0) / docs.length || 1;
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d.t)) if (wanted.includes(w)) df.set(w, (df.get(w) ?? 0) + 1);
  const hits: MemoryHit[] = [];
  for (const { m, t } of docs) {
    let score = 0;
    for (const w of wanted) {
      const n = df.get(w);
      if (!n) continue;
      const tf = t.filter((x) => x === w).length;
      if (tf === 0) continue;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * t.length) / avg));
    }
    if (score > 0) hits.push({ message: m, score });
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, options.limit);
}

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
