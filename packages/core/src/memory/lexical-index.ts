import type { MemoryHit, MemoryMessage, MemorySearchOptions } from './memory-store.js';
import { bm25, stem, WORD } from './rank-lexical.js';

/** One conversation in the index: its messages by seq, and their number and words (for BM25's statistics). */
interface Thread {
  bySeq: number[];
  docs: number;
  words: number;
}

/** A stem's postings: the messages holding it and how often. */
interface Postings {
  docs: number[];
  counts: number[];
}

/**
 * An in-process lexical index of one resource's messages: BM25 ranked exactly as `rankLexical` ranks
 * (same stemmer, same formula, over all the messages outside the excluded thread), and the messages
 * around a hit, without reading anything. Equal scores rank the message added later first. Messages
 * are kept without their embeddings. A message added again at the same (thread, seq) replaces it.
 */
export class LexicalIndex {
  readonly #messages: (MemoryMessage | undefined)[] = [];
  readonly #lengths: number[] = [];
  readonly #threadOf: Thread[] = [];
  readonly #threads = new Map<string, Thread>();
  readonly #byPlace = new Map<string, number>();
  readonly #postings = new Map<string, Postings>();
  readonly #stems = new Map<string, string>();
  #live = 0;
  #words = 0;
  #scores = new Float64Array(0);

  /** @param messages the resource's messages, oldest first. */
  constructor(messages: readonly MemoryMessage[] = []) {
    this.add(messages);
  }

  /** How many messages it holds. */
  get size(): number {
    return this.#live;
  }

  /** Adds messages (newest last); one at a (thread, seq) already held replaces it. */
  add(messages: readonly MemoryMessage[]): void {
    for (const m of messages) {
      const place = `${m.thread}\u0000${m.seq}`;
      const old = this.#byPlace.get(place);
      if (old !== undefined) this.#remove(old);
      const doc = this.#messages.length;
      this.#byPlace.set(place, doc);
      this.#messages.push({ thread: m.thread, seq: m.seq, role: m.role, text: m.text, at: m.at });
      const counts = new Map<string, number>();
      let length = 0;
      for (const word of m.text.toLowerCase().match(WORD) ?? []) {
        length++;
        let s = this.#stems.get(word);
        if (s === undefined) this.#stems.set(word, (s = stem(word)));
        counts.set(s, (counts.get(s) ?? 0) + 1);
      }
      for (const [s, n] of counts) {
        let p = this.#postings.get(s);
        if (!p) this.#postings.set(s, (p = { docs: [], counts: [] }));
        p.docs.push(doc);
        p.counts.push(n);
      }
      let thread = this.#threads.get(m.thread);
      if (!thread) this.#threads.set(m.thread, (thread = { bySeq: [], docs: 0, words: 0 }));
      this.#lengths.push(length);
      this.#threadOf.push(thread);
      thread.docs++;
      thread.words += length;
      this.#live++;
      this.#words += length;
      let at = thread.bySeq.length;
      while (at > 0 && (this.#messages[thread.bySeq[at - 1] as number]?.seq ?? 0) > m.seq) at--;
      thread.bySeq.splice(at, 0, doc);
    }
  }

  #remove(doc: number): void {
    const thread = this.#threadOf[doc] as Thread;
    const length = this.#lengths[doc] ?? 0;
    this.#messages[doc] = undefined; // its postings are skipped from now on
    thread.bySeq.splice(thread.bySeq.indexOf(doc), 1);
    thread.docs--;
    thread.words -= length;
    this.#live--;
    this.#words -= length;
  }

  /** The best messages for any of `terms` (lower-case words) by BM25, best first, as `rankLexical` ranks them. */
  search(terms: readonly string[], options: MemorySearchOptions): MemoryHit[] {
    const excluded = options.excludeThread === undefined ? undefined : this.#threads.get(options.excludeThread);
    const docs = this.#live - (excluded?.docs ?? 0);
    if (docs <= 0 || options.limit <= 0) return [];
    const avg = (this.#words - (excluded?.words ?? 0)) / docs || 1;
    if (this.#scores.length < this.#messages.length) this.#scores = new Float64Array(this.#messages.length * 2);
    const scores = this.#scores;
    const touched: number[] = [];
    for (const s of new Set(terms.map((t) => stem(t.toLowerCase())))) {
      const p = this.#postings.get(s);
      if (!p) continue;
      let df = 0;
      for (const doc of p.docs) if (this.#messages[doc] && this.#threadOf[doc] !== excluded) df++;
      for (let i = 0; i < p.docs.length; i++) {
        const doc = p.docs[i] as number;
        if (!this.#messages[doc] || this.#threadOf[doc] === excluded) continue;
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] = (scores[doc] as number) + bm25(p.counts[i] as number, this.#lengths[doc] as number, avg, df, docs);
      }
    }
    // The best `limit`, newest first among equals, without sorting every match.
    const best: number[] = [];
    for (const doc of touched) {
      const score = scores[doc] as number;
      if (score <= 0) continue;
      let at = best.length;
      while (at > 0 && this.#better(doc, score, best[at - 1] as number)) at--;
      if (at < options.limit) {
        best.splice(at, 0, doc);
        if (best.length > options.limit) best.pop();
      }
    }
    const hits = best.map((doc) => ({ message: this.#messages[doc] as MemoryMessage, score: scores[doc] as number }));
    for (const doc of touched) scores[doc] = 0;
    return hits;
  }

  #better(doc: number, score: number, than: number): boolean {
    const other = this.#scores[than] as number;
    return score > other || (score === other && doc > than);
  }

  /** The `before` messages before `seq` and the `after` after it in `thread`, with the one at `seq`, in order ([] when it is not held). */
  around(thread: string, seq: number, before: number, after: number): MemoryMessage[] {
    const list = this.#threads.get(thread)?.bySeq ?? [];
    const at = list.findIndex((doc) => this.#messages[doc]?.seq === seq);
    if (at < 0) return [];
    return list.slice(Math.max(0, at - before), at + after + 1).map((doc) => this.#messages[doc] as MemoryMessage);
  }
}
