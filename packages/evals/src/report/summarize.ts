/** The summary of an evaluation: per scorer, per case, and totals (pure, from its results log). */
import { emptySpend, type BudgetSpend } from '@skein/core';
import type { CaseResult } from '../runner/results-log.js';
import { runKey, type LogView } from './log-view.js';
import { passAtK } from './pass-at-k.js';

export interface ScorerSummary {
  name: string;
  /** Mean score over the runs it applied to. */
  mean: number;
  /** Share of those runs at or above the threshold. */
  passRate: number;
  /** Runs it applied to. */
  runs: number;
  threshold: number;
}

/** `flaky`: some runs passed, some did not; `notRun`: not every repeat ran (budget, cancellation, a kill). */
export type CaseStatus = 'passed' | 'failed' | 'flaky' | 'notRun' | 'invalid';

export interface CaseSummary {
  id: string;
  tags: string[];
  status: CaseStatus;
  runs: number;
  passes: number;
  passRate: number;
  /** pass@k with the evaluation's k. */
  passAtK: number;
  /** Mean score per scorer over this case's runs. */
  scores: Record<string, number>;
  /** Per scorer, the reason from a failing run (else from the last run). */
  reasons: Record<string, string>;
  /** The sessions of its runs, by repeat. */
  sessionIds: string[];
  /** Why it is invalid, or what went wrong in a run that threw. */
  problem?: string;
}

export interface EvalSummary {
  name: string;
  store?: string;
  repeats: number;
  passAtK: number;
  /** Every case passed (none failed, flaky, invalid or left unrun). */
  passed: boolean;
  counts: Record<CaseStatus, number> & { cases: number; runs: number; passedRuns: number };
  scorers: ScorerSummary[];
  cases: CaseSummary[];
  /** What every finished run spent, added up (wall time: the sum of the runs'). */
  totals: BudgetSpend;
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function caseStatus(runs: number, passes: number, repeats: number): CaseStatus {
  if (runs === 0) return 'notRun';
  if (passes === 0) return 'failed';
  if (passes < runs) return 'flaky';
  return runs < repeats ? 'notRun' : 'passed';
}

function summarizeCase(id: string, tags: string[], results: CaseResult[], view: LogView): CaseSummary {
  const { repeats, passAtK: k } = view.header;
  const passes = results.filter((r) => r.passed).length;
  const names = [...new Set(results.flatMap((r) => Object.keys(r.scores)))];
  const scores: Record<string, number> = {};
  const reasons: Record<string, string> = {};
  for (const name of names) {
    const entries = results.flatMap((r) => (r.scores[name] ? [r.scores[name]] : []));
    scores[name] = mean(entries.map((e) => e.score));
    reasons[name] = (entries.find((e) => !e.passed) ?? entries.at(-1))?.reason ?? '';
  }
  const thrown = results.find((r) => r.run.error)?.run.error;
  return {
    id,
    tags,
    status: caseStatus(results.length, passes, repeats),
    runs: results.length,
    passes,
    passRate: results.length ? passes / results.length : 0,
    passAtK: passAtK(results.length, passes, k),
    scores,
    reasons,
    sessionIds: results.flatMap((r) => (r.run.sessionId ? [r.run.sessionId] : [])),
    ...(thrown ? { problem: thrown } : {}),
  };
}

export function summarize(view: LogView): EvalSummary {
  const { header } = view;
  const results = (id: string): CaseResult[] =>
    Array.from({ length: header.repeats }, (_, r) => view.done.get(runKey(id, r))).filter((r): r is CaseResult => !!r);
  const cases: CaseSummary[] = header.cases.map((c) => summarizeCase(c.id, c.tags, results(c.id), view));
  for (const bad of header.invalid)
    cases.push({
      id: bad.id,
      tags: [],
      status: 'invalid',
      runs: 0,
      passes: 0,
      passRate: 0,
      passAtK: 0,
      scores: {},
      reasons: {},
      sessionIds: [],
      problem: bad.problem,
    });
  const all = [...view.done.values()];
  const scorers = header.scorers.map(({ name, threshold }): ScorerSummary => {
    const entries = all.flatMap((r) => (r.scores[name] ? [r.scores[name]] : []));
    return {
      name,
      threshold,
      runs: entries.length,
      mean: mean(entries.map((e) => e.score)),
      passRate: mean(entries.map((e) => (e.passed ? 1 : 0))),
    };
  });
  const totals = emptySpend();
  for (const r of all)
    for (const key of Object.keys(totals) as (keyof BudgetSpend)[]) totals[key] += r.run.usage[key] ?? 0;
  const count = (s: CaseStatus): number => cases.filter((c) => c.status === s).length;
  return {
    name: header.name,
    ...(header.store ? { store: header.store } : {}),
    repeats: header.repeats,
    passAtK: header.passAtK,
    passed: cases.every((c) => c.status === 'passed'),
    counts: {
      cases: cases.length,
      runs: all.length,
      passedRuns: all.filter((r) => r.passed).length,
      passed: count('passed'),
      failed: count('failed'),
      flaky: count('flaky'),
      notRun: count('notRun'),
      invalid: count('invalid'),
    },
    scorers,
    cases,
    totals,
  };
}
