/** Checks cases up front and throws one error listing every bad case (for a CI step that should stop early). */
import type { CaseInput, EvalCase } from './eval-case.js';
import { EvalCaseError } from '../errors.js';
import type { Scorer } from '../scorers/scorer.js';
import { checkCases } from './check-cases.js';

/**
 * The validated cases; `EvalCaseError` (with `problems`) when any is bad. `evaluate()` does not need
 * this: it runs the good cases and reports the bad ones as invalid.
 */
export async function parseCases(
  cases: readonly CaseInput[] | readonly unknown[],
  scorers: readonly Scorer[],
): Promise<EvalCase[]> {
  const checked = await checkCases(
    cases.map((value, i) => ({ value, origin: `cases[${i}]` })),
    scorers,
  );
  const problems = checked.flatMap((c) => (c.ok ? [] : [c.problem]));
  if (problems.length > 0) throw new EvalCaseError(problems);
  return checked.flatMap((c) => (c.ok ? [c.evalCase] : []));
}
