import { ScriptedModel } from '@skein/core/testing';
import { Agent } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { judge } from '../scorers/judge.js';
import { answer } from '../scorers/answer.js';
import { trajectory } from '../scorers/trajectory.js';
import { evaluate } from './evaluate.js';
import { shopGraph } from '../test-support/targets.js';

const billing = (id: string) => ({
  id,
  input: 'I was charged twice for order 42',
  expect: { trajectory: { nodes: ['triage', 'billing'] } },
});

describe('evaluate: concurrency, repeats, budget', () => {
  it('runs at most `concurrency` cases at once', async () => {
    let running = 0;
    let most = 0;
    const report = await evaluate({
      target: (ctx) => {
        most = Math.max(most, ++running);
        return { runnable: shopGraph(ctx.sessionManager, { delayMs: 5 }), close: () => void running-- };
      },
      cases: Array.from({ length: 12 }, (_, i) => billing(`c${i}`)),
      scorers: [trajectory()],
      concurrency: 3,
    });
    expect(report.summary.counts).toMatchObject({ runs: 12, passed: 12 });
    expect(most).toBe(3);
  });

  it('repeats: pass rate and pass@k per case; a case that passes sometimes is flaky', async () => {
    let n = 0;
    const report = await evaluate({
      target: () =>
        new Agent({ name: 'coin', model: new ScriptedModel([n++ % 2 === 0 ? 'heads' : 'tails'], { loop: true }) }),
      cases: [{ id: 'coin', input: 'flip', expect: { answer: { includes: ['heads'] } } }],
      scorers: [answer()],
      repeats: 4,
      passAtK: 2,
      concurrency: 1,
    });
    const [coin] = report.summary.cases;
    expect(coin).toMatchObject({ status: 'flaky', runs: 4, passes: 2, passRate: 0.5, scores: { answer: 0.5 } });
    expect(coin?.passAtK).toBeCloseTo(1 - (2 / 4) * (1 / 3)); // 1 - C(2,2)/C(4,2)
    expect(report.summary.counts).toMatchObject({ flaky: 1, runs: 4, passedRuns: 2 });
    expect(report.summary.scorers[0]).toMatchObject({ name: 'answer', mean: 0.5, passRate: 0.5, runs: 4 });
    expect(report.results.map((r) => r.run.sessionId)).toEqual([
      'eval.coin.r0',
      'eval.coin.r1',
      'eval.coin.r2',
      'eval.coin.r3',
    ]);
  });

  it('a budget over the whole evaluation: reached, no new run starts and the rest is reported as not run', async () => {
    // Each billing run makes 3 model calls (triage, billing's tool call, billing's answer).
    const report = await evaluate({
      target: (ctx) => shopGraph(ctx.sessionManager),
      cases: Array.from({ length: 5 }, (_, i) => billing(`c${i}`)),
      scorers: [trajectory()],
      budget: { modelCalls: 6 },
      concurrency: 1,
    });
    expect(report.summary.counts).toMatchObject({ runs: 2, passed: 2, notRun: 3 });
    expect(report.summary.totals.modelCalls).toBe(6);
    expect(report.summary.passed).toBe(false);
  });

  it("the judge's calls are kept out of the evaluation's budget", async () => {
    const grader = new ScriptedModel([{ toolUses: [{ name: 'grade', input: { score: 1, reasons: 'fine' } }] }], {
      loop: true,
    });
    const j = judge({ model: grader, rubric: 'Says what was done.' });
    const report = await evaluate({
      target: (ctx) => shopGraph(ctx.sessionManager),
      cases: [billing('a'), billing('b')],
      scorers: [trajectory(), j],
      budget: { modelCalls: 6 },
      concurrency: 1,
    });
    expect(report.summary.counts).toMatchObject({ runs: 2, passed: 2 });
    expect(report.summary.totals.modelCalls).toBe(6);
    expect(report.scorerSpend['judge']?.modelCalls).toBe(2);
    expect(report.results[0]?.scores['judge']).toEqual({ score: 1, reason: 'fine', threshold: 0.7, passed: true });
  });
});
