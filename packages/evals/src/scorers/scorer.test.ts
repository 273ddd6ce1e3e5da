import { describe, expect, it } from 'vitest';
import { caseRun, evalCase } from '../testing/index.js';
import { scorer } from './scorer.js';

const ctx = { signal: undefined };

describe('custom scorers', () => {
  it('a function returning a score and reason, a number, a boolean, or undefined (not applicable)', async () => {
    const run = caseRun({ text: 'Thank you!' });
    expect(
      await scorer('polite', (r) => ({ score: /thank/i.test(r.text) ? 1 : 0, reason: 'thanks' })).score(
        run,
        evalCase(),
        ctx,
      ),
    ).toEqual({
      score: 1,
      reason: 'thanks',
    });
    expect(await scorer('n', () => 0.25).score(run, evalCase(), ctx)).toEqual({ score: 0.25, reason: 'scored 0.25' });
    expect(await scorer('b', () => false).score(run, evalCase(), ctx)).toEqual({ score: 0, reason: 'failed' });
    expect(await scorer('u', () => undefined).score(run, evalCase(), ctx)).toBeUndefined();
  });

  it('scores are clamped into [0, 1]; NaN is 0', async () => {
    expect((await scorer('big', () => 7).score(caseRun(), evalCase(), ctx))?.score).toBe(1);
    expect((await scorer('nan', () => Number.NaN).score(caseRun(), evalCase(), ctx))?.score).toBe(0);
  });

  it('keeps its threshold and the expectation it reads', () => {
    const s = scorer('tone', () => 1, { threshold: 0.5, expects: 'tone' });
    expect([s.threshold, s.expects]).toEqual([0.5, 'tone']);
  });
});
