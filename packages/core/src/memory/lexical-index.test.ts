import { describe, expect, it } from 'vitest';
import { LexicalIndex, type MemoryMessage, rankLexical } from '../index.js';

const WORDS = 'order refund charged charges twice parcel late courier invoice card screen broken 42 77 lamp desk'.split(
  ' ',
);
let seed = 11;
const rand = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor((seed / 2147483648) * n); // the high bits (the low ones of this generator repeat)
};
const corpus = (count: number): MemoryMessage[] =>
  Array.from({ length: count }, (_, i) => ({
    thread: `t${i % 13}`,
    seq: i,
    role: i % 2 === 0 ? 'user' : 'assistant',
    // Every message says "order" (a term too common to lift one into the best: looked up, not read through).
    text: `${Array.from({ length: 3 + rand(20) }, () => WORDS[rand(WORDS.length)]).join(' ')} order`,
    at: '2026-01-01T00:00:00.000Z',
  }));
const key = (m: MemoryMessage): string => `${m.thread}/${m.seq}`;

describe('LexicalIndex', () => {
  it('ranks as rankLexical does: the same scores, best first, for any terms and excluded thread', () => {
    const messages = corpus(600);
    const index = new LexicalIndex(messages);
    for (let q = 0; q < 200; q++) {
      const terms = ['order', ...Array.from({ length: rand(4) }, () => WORDS[rand(WORDS.length)] as string)];
      const options = { limit: 1 + rand(8), excludeThread: q % 3 === 0 ? undefined : `t${rand(13)}` };
      const want = rankLexical(messages, terms, options);
      const got = index.search(terms, options);
      expect(got.map((h) => h.score)).toEqual(want.map((h) => expect.closeTo(h.score, 9)));
      const all = new Map(
        rankLexical(messages, terms, { ...options, limit: 1000 }).map((h) => [key(h.message), h.score]),
      );
      for (const hit of got) expect(all.get(key(hit.message))).toBeCloseTo(hit.score, 9);
    }
  });

  it('among equal scores, the message added later first; a message added again at its place replaces it', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const index = new LexicalIndex([
      { thread: 'a', seq: 1, role: 'user', text: 'refund for order 42', at },
      { thread: 'b', seq: 2, role: 'user', text: 'refund for order 42', at },
    ]);
    expect(index.search(['refund'], { limit: 2 }).map((h) => h.message.thread)).toEqual(['b', 'a']);
    index.add([{ thread: 'b', seq: 2, role: 'user', text: 'REDACTED', at }]);
    expect(index.size).toBe(2);
    expect(index.search(['refund'], { limit: 2 }).map((h) => h.message.thread)).toEqual(['a']);
    expect(index.search(['redacted'], { limit: 2 }).map((h) => h.message.text)).toEqual(['REDACTED']);
  });

  it('reads the messages around a hit in its thread, in order; nothing for a place it does not hold', () => {
    const messages = corpus(60).map((m) => ({ ...m, thread: 'x' }));
    const index = new LexicalIndex([...messages].reverse());
    expect(index.around('x', 10, 2, 1).map((m) => m.seq)).toEqual([8, 9, 10, 11]);
    expect(index.around('x', 0, 2, 1).map((m) => m.seq)).toEqual([0, 1]);
    expect(index.around('x', 1000, 1, 1)).toEqual([]);
    expect(index.around('nope', 10, 1, 1)).toEqual([]);
  });
});
