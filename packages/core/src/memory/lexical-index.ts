import type { MemoryHit, MemoryMessage, MemorySearchOptions } from './memory-store.js';
import { bm25, bm25Idf, stem, WORD } from './rank-lexical.js';

/** One conversation in the index: its messages by seq, and their number and words (for BM25's statistics). */
interface Thread {
  id: number;
  bySeq: number[];
  docs: number;
  words: number;
}

/** A stem's postings: the messages holding it (ascending) and how often, `size` of them, `live` not replaced. */
interface Postings {
  docs: Int32Array;
  counts: Int32Array;
  size: number;
  live: number;
}

/** Where `doc` is in the postings (-1: not there). */
function find(p: Postings, doc: number): number {
  let [lo, hi] = [0, p.size - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = p.docs[mid] as number;
    if (at === doc) return mid;
    if (at < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** `array` with room for at least `need` items (its contents kept). */
function room<T extends Int32Array | Uint8Array | Float64Array>(array: T, need: number): T {
  if (need <= array.length) return array;
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(need, array.length * 2, 64));
  bigger.set(array);
  return bigger;
}

/**
 * An in-process lexical index of one resource's messages: BM25 ranked as `rankLexical` ranks (same
 * stemmer, same formula, over all the messages outside the excluded thread), and the messages around
 * a hit, without reading anything. Equal scores rank the message added later first. Messages are kept
 * without their embeddings; one added again at the same (thread, seq) replaces the one held.
 */
export class LexicalIndex {
  readonly #messages: (MemoryMessage | undefined)[] = [];
  #alive = new Uint8Array(0);
  #lengths = new Int32Array(0);
  #threadIds = new Int32Array(0);
  readonly #threadOf: Thread[] = [];
  readonly #threads = new Map<string, Thread>();
  readonly #byPlace = new Map<string, number>();
  readonly #postings = new Map<string, Postings>();
  readonly #stems = new Map<string, string>();
  #live = 0;
  #words = 0;
  #scores = new Float64Array(0);
  #touched = new Int32Array(0);

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
      const { counts, length } = this.#count(m.text);
      for (const [s, n] of counts) {
        let p = this.#postings.get(s);
        if (!p) this.#postings.set(s, (p = { docs: new Int32Array(4), counts: new Int32Array(4), size: 0, live: 0 }));
        p.docs = room(p.docs, p.size + 1);
        p.counts = room(p.counts, p.size + 1);
        p.docs[p.size] = doc;
        p.counts[p.size++] = n;
        p.live++;
      }
      let thread = this.#threads.get(m.thread);
      if (!thread) this.#threads.set(m.thread, (thread = { id: this.#threads.size, bySeq: [], docs: 0, words: 0 }));
      this.#alive = room(this.#alive, doc + 1);
      this.#lengths = room(this.#lengths, doc + 1);
      this.#threadIds = room(this.#threadIds, doc + 1);
      this.#alive[doc] = 1;
      this.#lengths[doc] = length;
      this.#threadIds[doc] = thread.id;
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

  /** A text's stems with their counts, and its length in words. */
  #count(text: string): { counts: Map<string, number>; length: number } {
    const counts = new Map<string, number>();
    let length = 0;
    for (const word of text.toLowerCase().match(WORD) ?? []) {
      length++;
      let s = this.#stems.get(word);
      if (s === undefined) this.#stems.set(word, (s = stem(word)));
      counts.set(s, (counts.get(s) ?? 0) + 1);
    }
    return { counts, length };
  }

  #remove(doc: number): void {
    const thread = this.#threadOf[doc] as Thread;
    const length = this.#lengths[doc] ?? 0;
    for (const s of this.#count(this.#messages[doc]?.text ?? '').counts.keys()) {
      const p = this.#postings.get(s);
      if (p) p.live--;
    }
    this.#messages[doc] = undefined;
    this.#alive[doc] = 0; // its postings are skipped from now on
    thread.bySeq.splice(thread.bySeq.indexOf(doc), 1);
    thread.docs--;
    thread.words -= length;
    this.#live--;
    this.#words -= length;
  }

  /**
   * The best messages for any of `terms` (lower-case words) by BM25, best first, as `rankLexical` ranks
   * them. Exact, but a term too common to lift a message into the best (MaxScore: the sum of its and
   * the commoner terms' highest possible scores is below the best's last) is looked up only for the
   * messages that still could be lifted, instead of read through.
   */
  search(terms: readonly string[], options: MemorySearchOptions): MemoryHit[] {
    const excluded = options.excludeThread === undefined ? undefined : this.#threads.get(options.excludeThread);
    const docs = this.#live - (excluded?.docs ?? 0);
    if (docs <= 0 || options.limit <= 0) return [];
    const avg = (this.#words - (excluded?.words ?? 0)) / docs || 1;
    const ex = excluded?.id ?? -1;
    const wanted: { p: Postings; idf: number; top: number }[] = [];
    for (const s of new Set(terms.map((t) => stem(t.toLowerCase())))) {
      const p = this.#postings.get(s);
      if (!p) continue;
      let df = p.live;
      for (const doc of excluded?.bySeq ?? []) if (find(p, doc) >= 0) df--;
      if (df <= 0) continue;
      const idf = bm25Idf(df, docs);
      wanted.push({ p, idf, top: idf * 2.2 }); // 2.2 = k1 + 1: no message scores more for the term
    }
    wanted.sort((a, b) => b.top - a.top);
    const rest = wanted.map((_, i) => wanted.slice(i).reduce((n, w) => n + w.top, 0));
    this.#scores = room(this.#scores, this.#messages.length);
    this.#touched = room(this.#touched, this.#messages.length);
    const [scores, touched, alive, lengths, threadIds] = [
      this.#scores,
      this.#touched,
      this.#alive,
      this.#lengths,
      this.#threadIds,
    ];
    let count = 0;
    let j = 0;
    for (; j < wanted.length; j++) {
      if (j > 0 && (rest[j] as number) < this.#bar(count, options.limit)) break;
      const { p, idf } = wanted[j] as (typeof wanted)[number];
      for (let i = 0; i < p.size; i++) {
        const doc = p.docs[i] as number;
        if (alive[doc] !== 1 || threadIds[doc] === ex) continue;
        if (scores[doc] === 0) touched[count++] = doc;
        scores[doc] = (scores[doc] as number) + bm25(idf, p.counts[i] as number, lengths[doc] as number, avg);
      }
    }
    if (j < wanted.length) {
      // The commoner terms only for messages that could still reach the best; the others stay below its last.
      const bar = this.#bar(count, options.limit) - (rest[j] as number);
      for (let t = 0; t < count; t++) {
        const doc = touched[t] as number;
        if ((scores[doc] as number) < bar) continue;
        for (let k = j; k < wanted.length; k++) {
          const { p, idf } = wanted[k] as (typeof wanted)[number];
          const i = find(p, doc);
          if (i >= 0)
            scores[doc] = (scores[doc] as number) + bm25(idf, p.counts[i] as number, lengths[doc] as number, avg);
        }
      }
    }
    const best = this.#best(count, options.limit);
    const hits = best.map((doc) => ({ message: this.#messages[doc] as MemoryMessage, score: scores[doc] as number }));
    for (let t = 0; t < count; t++) scores[touched[t] as number] = 0;
    return hits;
  }

  /** The score a message needs to be among the best `limit` of those touched so far (0 while fewer). */
  #bar(count: number, limit: number): number {
    if (count < limit) return 0;
    const best = this.#best(count, limit);
    return this.#scores[best[best.length - 1] as number] as number;
  }

  /** The best `limit` of the `count` messages touched, newest first among equals, without sorting them all. */
  #best(count: number, limit: number): number[] {
    const [scores, touched] = [this.#scores, this.#touched];
    const best: number[] = [];
    for (let t = 0; t < count; t++) {
      const doc = touched[t] as number;
      const score = scores[doc] as number;
      let at = best.length;
      while (at > 0) {
        const other = scores[best[at - 1] as number] as number;
        if (score < other || (score === other && doc < (best[at - 1] as number))) break;
        at--;
      }
      if (at < limit) {
        best.splice(at, 0, doc);
        if (best.length > limit) best.pop();
      }
    }
    return best;
  }

  /** The `before` messages before `seq` and the `after` after it in `thread`, with the one at `seq`, in order ([] when it is not held). */
  around(thread: string, seq: number, before: number, after: number): MemoryMessage[] {
    const list = this.#threads.get(thread)?.bySeq ?? [];
    const at = list.findIndex((doc) => this.#messages[doc]?.seq === seq);
    if (at < 0) return [];
    return list.slice(Math.max(0, at - before), at + after + 1).map((doc) => this.#messages[doc] as MemoryMessage);
  }
}
