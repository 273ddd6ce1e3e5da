/** The errors of @skein/evals: bad cases and unreadable results files, as SkeinErrors with a code. */
import { SkeinError, type SkeinErrorOptions } from '@skein/core';

/** One or more cases cannot run; `problems` names each case, where it came from and the field. */
export class EvalCaseError extends SkeinError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options: SkeinErrorOptions = {}) {
    super(
      `${problems.length === 1 ? 'A case is' : `${problems.length} cases are`} not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
      options,
      'eval_case',
    );
    this.problems = problems;
  }
}

/** A results file that cannot be read or resumed (not JSONL of an evaluation, or of another evaluation). */
export class EvalResultsError extends SkeinError {
  /** The file. */
  readonly location: string;

  constructor(message: string, location: string, options: SkeinErrorOptions = {}) {
    super(message, options, 'eval_results');
    this.location = location;
  }
}
