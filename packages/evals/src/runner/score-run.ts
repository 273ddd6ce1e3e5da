/** Scores one run with every scorer; a scorer that throws scores 0 with the error as its reason. */
import { errorMessage } from '@skein/core';
import type { EvalCase } from '../case/eval-case.js';
import type { CaseRun } from '../run/case-run.js';
import { clampScore, type Scorer } from '../scorers/scorer.js';
import type { ScoreEntry } from './results-log.js';

/** The threshold a scorer applies to a case: the case's own, else the scorer's, else 1. */
const thresholdOf = (scorer: Scorer, evalCase: EvalCase): number =>
  evalCase.thresholds[scorer.name] ?? scorer.threshold ?? 1;

export interface Scored {
  scores: Record<string, ScoreEntry>;
  /** Every applicable scorer passed and the run did not throw. */
  passed: boolean;
}

export async function scoreRun(
  run: CaseRun,
  evalCase: EvalCase,
  scorers: readonly Scorer[],
  signal: AbortSignal | undefined,
): Promise<Scored> {
  const scores: Record<string, ScoreEntry> = {};
  await Promise.all(
    scorers.map(async (scorer) => {
      const threshold = thresholdOf(scorer, evalCase);
      let result;
      try {
        result = await scorer.score(run, evalCase, { signal });
      } catch (error) {
        result = { score: 0, reason: `the scorer threw: ${errorMessage(error)}` };
      }
      if (result === undefined) return;
      const score = clampScore(result.score);
      scores[scorer.name] = { score, reason: result.reason, threshold, passed: score >= threshold };
    }),
  );
  const ordered = Object.fromEntries(scorers.flatMap((s) => (scores[s.name] ? [[s.name, scores[s.name]]] : [])));
  const passed = run.status !== 'error' && Object.values(scores).every((s) => s.passed);
  return { scores: ordered as Record<string, ScoreEntry>, passed };
}
