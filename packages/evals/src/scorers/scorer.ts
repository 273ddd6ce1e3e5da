/**
 * A scorer turns one run of a case into a score in [0, 1] and a reason. Built-in scorers read their
 * expectation from `case.expect[<their key>]` and skip cases without one; any function can be one.
 */
import type { EvalCase, SchemaLike } from '../case/eval-case.js';
import type { CaseRun } from '../run/case-run.js';
import type { ZodNamespace } from './zod-namespace.js';

/** A score in [0, 1] and why. */
export interface ScoreResult {
  score: number;
  reason: string;
}

/** What `score` gets besides the run and the case. */
export interface ScoreContext {
  /** Aborted when the evaluation is cancelled. */
  signal: AbortSignal | undefined;
}

export interface Scorer {
  /** Unique in an evaluation; names the score in results, summaries and comparisons. */
  readonly name: string;
  /**
   * The key of `case.expect` this scorer reads. Cases are checked against `schema` when they have it,
   * and a case's `expect` may only hold keys some scorer reads (a typo is an error naming the case).
   */
  readonly expects?: string;
  /**
   * Validates `case.expect[expects]`: a zod schema (anything with `safeParse`), or a function that
   * builds one from zod (so zod is loaded only when cases are validated).
   */
  readonly schema?: SchemaLike | ((z: ZodNamespace) => SchemaLike);
  /** The lowest score that passes (default 1); a case's `thresholds[name]` overrides it. */
  readonly threshold?: number;
  /** Scores one run; `undefined` when the scorer does not apply to this case (not counted in its mean). */
  score(
    run: CaseRun,
    evalCase: EvalCase,
    context: ScoreContext,
  ): ScoreResult | undefined | Promise<ScoreResult | undefined>;
}

/** Clamps a score into [0, 1] (NaN is 0). */
export function clampScore(score: number): number {
  return Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0;
}

/**
 * A scorer from your own function.
 * @example scorer('polite', (run) => ({ score: /please|thank/i.test(run.text) ? 1 : 0, reason: 'says please or thanks' }))
 */
export function scorer(
  name: string,
  score: (
    run: CaseRun,
    evalCase: EvalCase,
    context: ScoreContext,
  ) => ScoreResult | number | boolean | undefined | Promise<ScoreResult | number | boolean | undefined>,
  options: Pick<Scorer, 'threshold' | 'expects' | 'schema'> = {},
): Scorer {
  return {
    name,
    ...options,
    async score(run, evalCase, context) {
      const value = await score(run, evalCase, context);
      if (value === undefined) return undefined;
      if (typeof value === 'boolean') return { score: value ? 1 : 0, reason: value ? 'passed' : 'failed' };
      if (typeof value === 'number') return { score: clampScore(value), reason: `scored ${value}` };
      return { score: clampScore(value.score), reason: String(value.reason) };
    },
  };
}
