import { emptySpend } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { caseRun, evalCase } from '../testing/index.js';
import { cost, scoreCost } from './cost.js';

const run = caseRun({ usage: { ...emptySpend(), totalTokens: 900, modelCalls: 6, toolCalls: 2, wallMs: 1500 } });

describe('cost scorer', () => {
  it('within every limit: 1', () => {
    expect(scoreCost(run, { totalTokens: 1000, modelCalls: 6 })).toEqual({
      score: 1,
      reason: '900 tokens (limit 1000), 6 model calls (limit 6)',
    });
  });

  it('over a limit: limit / spent, the worst limit counts', () => {
    const r = scoreCost(run, { totalTokens: 450, modelCalls: 4, wallMs: 10_000 });
    expect(r.score).toBe(0.5);
    expect(r.reason).toBe('900 tokens (limit 450: over), 6 model calls (limit 4: over), 1500 ms (limit 10000)');
    expect(scoreCost(run, { toolCalls: 0 }).score).toBe(0);
  });

  it("the scorer's limits apply to every case; a case's own override them one by one", async () => {
    const s = cost({ limits: { totalTokens: 2000, modelCalls: 4 } });
    const ctx = { signal: undefined };
    expect(await s.score(run, evalCase(), ctx)).toMatchObject({ score: 4 / 6 });
    expect(await s.score(run, evalCase({ expect: { cost: { modelCalls: 8 } } }), ctx)).toMatchObject({ score: 1 });
    expect(await cost().score(run, evalCase(), ctx)).toBeUndefined();
  });
});
