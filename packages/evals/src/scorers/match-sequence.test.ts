import { describe, expect, it } from 'vitest';
import { lcsLength, matchSequence, multisetOverlap } from './match-sequence.js';

const ran = ['triage', 'billing', 'notes', 'summary'];

describe('matchSequence', () => {
  it('exact: the same list scores 1, anything else 0, with both lists in the reason', () => {
    expect(matchSequence('ran', ran, ran, 'exact')).toEqual({
      score: 1,
      reason: 'ran triage > billing > notes > summary, as expected',
    });
    const other = matchSequence('ran', ran, ['triage', 'refund', 'notes', 'summary'], 'exact');
    expect(other.score).toBe(0);
    expect(other.reason).toBe(
      'ran triage > billing > notes > summary; expected exactly triage > refund > notes > summary',
    );
    expect(matchSequence('ran', ['b', 'a'], ['a', 'b'], 'exact').score).toBe(0);
  });

  it('inOrder: expected items in this order with others between; partial credit for the longest part in order', () => {
    expect(matchSequence('ran', ran, ['triage', 'summary'], 'inOrder').score).toBe(1);
    const swapped = matchSequence('ran', ran, ['summary', 'triage'], 'inOrder');
    expect(swapped.score).toBe(0.5);
    expect(swapped.reason).toContain('(1 of 2 in order)');
    expect(matchSequence('ran', ran, ['triage', 'refund', 'summary'], 'inOrder').score).toBeCloseTo(2 / 3);
    expect(matchSequence('ran', [], [], 'inOrder').score).toBe(1);
  });

  it('anyOrder: the same items in any order; missing and extra ones named', () => {
    expect(matchSequence('ran', ran, ['summary', 'notes', 'billing', 'triage'], 'anyOrder').score).toBe(1);
    const off = matchSequence('ran', ran, ['triage', 'refund', 'notes', 'summary'], 'anyOrder');
    expect(off.score).toBe(0.75);
    expect(off.reason).toContain('missing refund; extra billing');
    expect(matchSequence('ran', ['a', 'a'], ['a'], 'anyOrder').score).toBe(0.5);
  });

  it('subset: nothing ran outside the expected items', () => {
    expect(matchSequence('ran', ['triage', 'billing'], ran, 'subset').score).toBe(1);
    const extra = matchSequence('ran', ['triage', 'refund'], ran, 'subset');
    expect(extra.score).toBe(0.5);
    expect(extra.reason).toContain('not expected: refund');
    expect(matchSequence('ran', [], ['a'], 'subset').score).toBe(1);
  });

  it('superset: every expected item ran, others may too', () => {
    expect(matchSequence('ran', ran, ['billing', 'triage'], 'superset').score).toBe(1);
    const absent = matchSequence('ran', ran, ['refund', 'triage'], 'superset');
    expect(absent.score).toBe(0.5);
    expect(absent.reason).toContain('did not run: refund');
  });

  it('helpers: longest common subsequence and multiset overlap', () => {
    expect(lcsLength(['a', 'b', 'c', 'd'], ['b', 'd', 'a'])).toBe(2);
    expect(lcsLength([], ['a'])).toBe(0);
    expect(multisetOverlap(['a', 'a', 'b'], ['a', 'b', 'b'])).toBe(2);
  });
});
