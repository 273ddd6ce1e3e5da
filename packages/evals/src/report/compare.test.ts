import { describe, expect, it } from 'vitest';
import { compareSummaries } from './compare.js';
import { formatComparison, formatSummary } from './format-text.js';
import type { CaseSummary, EvalSummary } from './summarize.js';
import { emptySpend } from '@skein/core';

const kase = (id: string, trajectory: number, answer = 1): CaseSummary => {
  const passed = trajectory === 1 && answer === 1;
  return {
    id,
    tags: [],
    status: passed ? 'passed' : 'failed',
    runs: 1,
    passes: passed ? 1 : 0,
    passRate: passed ? 1 : 0,
    passAtK: passed ? 1 : 0,
    scores: { trajectory, answer },
    reasons: {
      trajectory: trajectory === 1 ? 'ran triage > refund' : 'ran triage > billing; expected exactly triage > refund',
      answer: 'ok',
    },
    sessionIds: [`e.${id}.r0`],
  };
};
const summary = (cases: CaseSummary[]): EvalSummary => {
  const mean = (k: string): number => cases.reduce((a, c) => a + (c.scores[k] ?? 0), 0) / cases.length;
  return {
    name: 'e',
    repeats: 1,
    passAtK: 1,
    passed: cases.every((c) => c.status === 'passed'),
    counts: {
      cases: cases.length,
      runs: cases.length,
      passedRuns: 0,
      passed: 0,
      failed: 0,
      flaky: 0,
      notRun: 0,
      invalid: 0,
    },
    scorers: ['trajectory', 'answer'].map((name) => ({
      name,
      mean: mean(name),
      passRate: mean(name),
      runs: cases.length,
      threshold: 1,
    })),
    cases,
    totals: emptySpend(),
  };
};

describe('compare', () => {
  const base = summary([kase('billing', 1), kase('refund', 1), kase('other', 0.5)]);

  it('flags exactly the cases that got worse, and the scorer whose mean dropped', () => {
    const next = summary([kase('billing', 1), kase('refund', 0), kase('other', 1)]);
    const c = compareSummaries(base, next);
    expect(c.regressions.map((r) => r.id)).toEqual(['refund']);
    expect(c.regressions[0]).toEqual({
      id: 'refund',
      base: { status: 'passed', passRate: 1 },
      next: { status: 'failed', passRate: 0 },
      scores: [
        { name: 'trajectory', base: 1, next: 0, reason: 'ran triage > billing; expected exactly triage > refund' },
      ],
    });
    expect(c.improvements.map((r) => r.id)).toEqual(['other']);
    expect(c.scorers.find((s) => s.name === 'trajectory')?.delta).toBeCloseTo(-0.5 / 3);
    expect(c.scorers.find((s) => s.name === 'trajectory')?.dropped).toBe(true);
    expect(c.scorers.find((s) => s.name === 'answer')).toMatchObject({ delta: 0, dropped: false });
    expect(c.failed).toBe(true);
  });

  it('a threshold lets a small drop pass; identical runs compare clean', () => {
    const next = summary([kase('billing', 1), kase('refund', 0), kase('other', 1)]);
    expect(compareSummaries(base, next, { threshold: 0.2 }).failed).toBe(false);
    const same = compareSummaries(base, base);
    expect([same.regressions, same.improvements, same.failed]).toEqual([[], [], false]);
  });

  it('added and removed cases are listed, not compared', () => {
    const next = summary([kase('billing', 1), kase('new', 1)]);
    const c = compareSummaries(base, next);
    expect([c.added, c.removed]).toEqual([['new'], ['refund', 'other']]);
  });

  it('text views', () => {
    const next = summary([kase('billing', 1), kase('refund', 0), kase('other', 0.5)]);
    const text = formatComparison(compareSummaries(base, next));
    expect(text).toContain('  trajectory   0.83 -> 0.50  -0.33  DROPPED (more than 0)');
    expect(text).toContain(
      'regressions (1):\n  refund: passed -> failed\n      trajectory 1.00 -> 0.00: ran triage > billing',
    );
    expect(text).toMatch(/FAILED: a scorer's mean dropped more than the threshold\n$/);
    const shown = formatSummary({ ...next, store: '.desk/evals/sessions' });
    expect(shown).toContain('evaluation e: 3 cases, 3 runs: NOT all passed');
    expect(shown).toContain(
      '  FAIL refund\n      trajectory 0.00: ran triage > billing; expected exactly triage > refund\n      run: e.refund.r0 (npx skein show .desk/evals/sessions e.refund.r0)',
    );
    // Inside the skein repository the inspector runs from source; a long reason is printed whole.
    const long = `issue_refund: expected ${JSON.stringify({ orderId: '108', amountEur: 60, reason: 'x'.repeat(150) })} got amountEur 600`;
    const inRepo = formatSummary(
      {
        ...next,
        store: '.desk/evals/sessions',
        cases: next.cases.map((c) => ({ ...c, reasons: { trajectory: long } })),
      },
      { showCommand: 'npm run skein --' },
    );
    expect(inRepo).toContain(`trajectory 0.00: ${long}\n`);
    expect(inRepo).toContain('(npm run skein -- show .desk/evals/sessions e.refund.r0)');
  });
});
