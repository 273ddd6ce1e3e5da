import { type MemoryHit, type MemoryMessage, rankLexical } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { fuseRanks } from './rank.js';
import { termsOf } from './terms.js';

const msg = (thread: string, seq: number, text: string): MemoryMessage => ({ thread, seq, role: 'user', text, at: '' });

describe('ranking in memory', () => {
  it('finds "charged twice" for "double charge" by its stem, leaves out the thread under way', () => {
    const messages = [
      msg('a', 1, 'I was charged twice for order 42'),
      msg('b', 1, 'refund order 7'),
      msg('c', 1, 'charge me'),
    ];
    const hits = rankLexical(messages, termsOf('Did you fix my double charge?'), { limit: 5, excludeThread: 'c' });
    expect(hits.map((h) => h.message.thread)).toEqual(['a']);
  });

  it('fuses ranked lists by reciprocal rank: a message high in both wins', () => {
    const [x, y, z] = [msg('t', 1, 'x'), msg('t', 2, 'y'), msg('t', 3, 'z')];
    const hit = (m: MemoryMessage): MemoryHit => ({ message: m, score: 1 });
    const fused = fuseRanks(
      [
        [hit(x), hit(y)],
        [hit(y), hit(z)],
      ],
      2,
    );
    expect(fused.map((h) => h.message.seq)).toEqual([2, 1]);
  });
});
