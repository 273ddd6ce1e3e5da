/**
 * Compares two evaluations of the same cases (a baseline and a new run): per scorer, the change of
 * its mean; per case, regressions and improvements. Fails when a scorer's mean drops more than the
 * threshold (for CI). Pure.
 */
import type { CaseSummary, EvalSummary } from './summarize.js';

export interface ScorerChange {
  name: string;
  base: number | undefined;
  next: number | undefined;
  /** `next - base` (0 when one side did not score). */
  delta: number;
  /** Dropped by more than the threshold. */
  dropped: boolean;
}

export interface CaseChange {
  id: string;
  base: { status: string; passRate: number };
  next: { status: string; passRate: number };
  /** Scorers whose mean for this case changed, with the new run's reason. */
  scores: { name: string; base: number | undefined; next: number | undefined; reason: string }[];
}

export interface EvalComparison {
  threshold: number;
  scorers: ScorerChange[];
  /** Cases that got worse: a lower pass rate or a lower score on some scorer. */
  regressions: CaseChange[];
  /** Cases that got better and worse on nothing. */
  improvements: CaseChange[];
  /** Case ids only in the new evaluation / only in the baseline. */
  added: string[];
  removed: string[];
  /** Some scorer's mean dropped more than the threshold. */
  failed: boolean;
}

export interface CompareOptions {
  /** How far a scorer's mean may drop before the comparison fails (default 0: any drop fails). */
  threshold?: number;
}

const EPSILON = 1e-9;

function caseChange(base: CaseSummary, next: CaseSummary): { change: CaseChange; worse: boolean; better: boolean } {
  const names = [...new Set([...Object.keys(base.scores), ...Object.keys(next.scores)])];
  const scores = names.flatMap((name) => {
    const b = base.scores[name];
    const n = next.scores[name];
    if (b !== undefined && n !== undefined && Math.abs(b - n) <= EPSILON) return [];
    return [{ name, base: b, next: n, reason: next.reasons[name] ?? base.reasons[name] ?? '' }];
  });
  const worse =
    next.passRate < base.passRate - EPSILON ||
    scores.some((s) => s.base !== undefined && (s.next === undefined || s.next < s.base));
  const better =
    next.passRate > base.passRate + EPSILON ||
    scores.some((s) => s.next !== undefined && (s.base === undefined || s.next > s.base));
  return {
    change: {
      id: next.id,
      base: { status: base.status, passRate: base.passRate },
      next: { status: next.status, passRate: next.passRate },
      scores,
    },
    worse: worse || (base.status === 'passed' && next.status !== 'passed'),
    better,
  };
}

export function compareSummaries(base: EvalSummary, next: EvalSummary, options: CompareOptions = {}): EvalComparison {
  const threshold = options.threshold ?? 0;
  const names = [...new Set([...base.scorers.map((s) => s.name), ...next.scorers.map((s) => s.name)])];
  const scorers = names.map((name): ScorerChange => {
    const b = base.scorers.find((s) => s.name === name && s.runs > 0)?.mean;
    const n = next.scorers.find((s) => s.name === name && s.runs > 0)?.mean;
    const delta = b !== undefined && n !== undefined ? n - b : 0;
    return { name, base: b, next: n, delta, dropped: delta < -threshold - EPSILON };
  });
  const baseCases = new Map(base.cases.map((c) => [c.id, c]));
  const nextIds = new Set(next.cases.map((c) => c.id));
  const regressions: CaseChange[] = [];
  const improvements: CaseChange[] = [];
  for (const n of next.cases) {
    const b = baseCases.get(n.id);
    if (!b) continue;
    const { change, worse, better } = caseChange(b, n);
    if (worse) regressions.push(change);
    else if (better) improvements.push(change);
  }
  return {
    threshold,
    scorers,
    regressions,
    improvements,
    added: next.cases.filter((c) => !baseCases.has(c.id)).map((c) => c.id),
    removed: base.cases.filter((c) => !nextIds.has(c.id)).map((c) => c.id),
    failed: scorers.some((s) => s.dropped),
  };
}
