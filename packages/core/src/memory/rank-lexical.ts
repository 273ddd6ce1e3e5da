import type { MemoryHit, MemoryMessage, MemorySearchOptions } from './memory-store.js';

/** A light stemmer for ranking ("charged", "charges" and "charge" meet at "charg"). */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'edly', 'ed', 'ies', 'es', 'ly', 's', 'e']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  }
  return word;
}

/** The words of a text, as ranking counts them. */
export const WORD = /[\p{L}\p{N}]+/gu;

/** A term's inverse document frequency in BM25: `df` of `docs` messages hold it. */
export function bm25Idf(df: number, docs: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/** One term's BM25 score (k1 1.2, b 0.75) in one message: `n` occurrences in a message of `length` words, `avg` words per message. */
export function bm25(idf: number, n: number, length: number, avg: number): number {
  return (idf * n * 2.2) / (n + 1.2 * (0.25 + (0.75 * length) / avg));
}

/** A message's length in words and how often each wanted stem occurs in it. */
function countIn(
  text: string,
  wanted: ReadonlySet<string>,
  stems: Map<string, string>,
): { length: number; tf: Map<string, number> } {
  const tf = new Map<string, number>();
  let length = 0;
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    length++;
    let s = stems.get(word);
    if (s === undefined) stems.set(word, (s = stem(word)));
    if (wanted.has(s)) tf.set(s, (tf.get(s) ?? 0) + 1);
  }
  return { length, tf };
}

/**
 * Ranks `messages` for `terms` with BM25 (k1 1.2, b 0.75) over these messages, best first: the
 * lexical search of stores without an index of their own (in memory, files, S3), and the ranking of
 * the candidates an index found (SQLite, PostgreSQL). `LexicalIndex` ranks the same way, kept in memory.
 */
export function rankLexical(
  messages: readonly MemoryMessage[],
  terms: readonly string[],
  options: MemorySearchOptions,
): MemoryHit[] {
  const stems = new Map<string, string>();
  const wanted = new Set(terms.map((t) => stem(t.toLowerCase())));
  if (wanted.size === 0) return [];
  const docs = messages
    .filter((m) => m.thread !== options.excludeThread)
    .map((m) => ({ m, ...countIn(m.text, wanted, stems) }));
  if (docs.length === 0) return [];
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length || 1;
  const df = new Map<string, number>();
  for (const d of docs) for (const w of d.tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const hits: MemoryHit[] = [];
  for (const { m, length, tf } of docs) {
    let score = 0;
    for (const [w, n] of tf) score += bm25(bm25Idf(df.get(w) ?? 0, docs.length), n, length, avg);
    if (score > 0) hits.push({ message: m, score });
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, options.limit);
}
