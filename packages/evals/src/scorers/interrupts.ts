/**
 * The interrupts scorer: the run asked a person exactly what `case.expect.interrupts` lists (name,
 * tool and input), and nothing else; an empty list expects no question at all.
 */
import type { InterruptExpectation } from '../case/eval-case.js';
import type { CaseRun, InterruptRecord } from '../run/case-run.js';
import { partialMismatch } from './match-args.js';
import type { ScoreResult, Scorer } from './scorer.js';
import type { ZodNamespace } from './zod-namespace.js';
import { jsonObject } from '../case/json-check.js';

export interface InterruptsScorerOptions {
  /** Default `interrupts`. */
  name?: string;
  threshold?: number;
}

const interruptsSchema = (z: ZodNamespace) =>
  z.array(
    z
      .object({
        name: z.string().optional(),
        tool: z.string().optional(),
        input: jsonObject(z).optional(),
      })
      .strict(),
  );

const shown = (i: InterruptRecord): string =>
  `${i.name}${i.tool ? ` for ${i.tool}` : ''}${i.input === undefined ? '' : ` ${JSON.stringify(i.input)}`} (from ${i.source})`;

const matches = (actual: InterruptRecord, expected: InterruptExpectation): boolean =>
  actual.name === (expected.name ?? 'approval') &&
  (expected.tool === undefined || actual.tool === expected.tool) &&
  (expected.input === undefined || partialMismatch(actual.input, expected.input) === undefined);

/** Scores the interrupts of one run (pure). */
export function scoreInterrupts(run: CaseRun, expected: readonly InterruptExpectation[]): ScoreResult {
  const left = [...run.interrupts];
  const problems: string[] = [];
  let found = 0;
  for (const want of expected) {
    const i = left.findIndex((actual) => matches(actual, want));
    if (i >= 0) {
      left.splice(i, 1);
      found++;
    } else {
      problems.push(
        `did not ask ${want.name ?? 'approval'}${want.tool ? ` for ${want.tool}` : ''}${want.input ? ` with ${JSON.stringify(want.input)}` : ''}`,
      );
    }
  }
  for (const extra of left) problems.push(`asked ${shown(extra)}, which was not expected`);
  const total = found + problems.length;
  const score = total === 0 ? 1 : found / total;
  if (problems.length > 0) return { score, reason: problems.join('; ') };
  return {
    score,
    reason: expected.length === 0 ? 'asked nobody, as expected' : `asked ${run.interrupts.map(shown).join(', ')}`,
  };
}

/**
 * @example interrupts()   // reads case.expect.interrupts: [{ tool: 'issue_refund', input: { amountEur: 60 } }], or [] for none
 */
export function interrupts(options: InterruptsScorerOptions = {}): Scorer {
  return {
    name: options.name ?? 'interrupts',
    expects: 'interrupts',
    schema: interruptsSchema,
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    score(run, evalCase) {
      const expected = evalCase.expect.interrupts;
      return expected ? scoreInterrupts(run, expected) : undefined;
    },
  };
}
