/**
 * The answer scorer: the final answer includes (or excludes) texts, matches a regular expression,
 * and its structured output satisfies a zod schema. Score: the share of checks that hold.
 */
import type { AnswerExpectation } from '../case/eval-case.js';
import type { CaseRun } from '../run/case-run.js';
import { isSchemaLike, schemaMismatch } from './match-args.js';
import type { ScoreResult, Scorer } from './scorer.js';
import type { ZodNamespace } from './zod-namespace.js';

export interface AnswerScorerOptions {
  /** Default `answer`. */
  name?: string;
  threshold?: number;
}

/** A regular expression from a RegExp or a string (`/pattern/flags`, or a bare pattern). */
export function toRegExp(regex: string | RegExp): RegExp {
  if (regex instanceof RegExp) return regex;
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(regex);
  return literal ? new RegExp(literal[1] ?? '', literal[2]) : new RegExp(regex);
}

const answerSchema = (z: ZodNamespace) =>
  z
    .object({
      includes: z.array(z.string()).optional(),
      excludes: z.array(z.string()).optional(),
      regex: z
        .union([
          z.instanceof(RegExp),
          z.string().refine((s) => {
            try {
              toRegExp(s);
              return true;
            } catch {
              return false;
            }
          }, 'not a valid regular expression'),
        ])
        .optional(),
      schema: z.custom<unknown>(isSchemaLike, 'expected a zod schema').optional(),
    })
    .strict();

const cut = (s: string): string => (s.length > 120 ? `${s.slice(0, 117)}...` : s);

/** The value a schema checks: the structured output, else the answer parsed as JSON. */
function structuredValue(run: CaseRun): { value: unknown } | undefined {
  if (run.structuredOutput !== undefined) return { value: run.structuredOutput };
  try {
    return { value: JSON.parse(run.text) as unknown };
  } catch {
    return undefined;
  }
}

/** Scores the final answer of one run (pure). */
export function scoreAnswer(run: CaseRun, expected: AnswerExpectation): ScoreResult {
  const problems: string[] = [];
  let checks = 0;
  const lower = run.text.toLowerCase();
  for (const text of expected.includes ?? []) {
    checks++;
    if (!lower.includes(text.toLowerCase())) problems.push(`does not include "${text}"`);
  }
  for (const text of expected.excludes ?? []) {
    checks++;
    if (lower.includes(text.toLowerCase())) problems.push(`includes "${text}"`);
  }
  if (expected.regex !== undefined) {
    checks++;
    const regex = toRegExp(expected.regex);
    regex.lastIndex = 0; // a /g or /y expression remembers where it stopped
    if (!regex.test(run.text)) problems.push(`does not match ${String(regex)}`);
  }
  if (expected.schema) {
    checks++;
    const value = structuredValue(run);
    const mismatch = value
      ? schemaMismatch(value.value, expected.schema)
      : 'no structured output and the answer is not JSON';
    if (mismatch) problems.push(`structured output: ${mismatch}`);
  }
  const score = checks === 0 ? 1 : (checks - problems.length) / checks;
  return {
    score,
    reason: `${problems.length === 0 ? `all ${checks} answer checks hold` : problems.join('; ')}: "${cut(run.text)}"`,
  };
}

/**
 * @example answer()   // reads case.expect.answer: { includes: ['refunded'], regex: '/12 EUR/' }
 */
export function answer(options: AnswerScorerOptions = {}): Scorer {
  return {
    name: options.name ?? 'answer',
    expects: 'answer',
    schema: answerSchema,
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    score(run, evalCase) {
      const expected = evalCase.expect.answer;
      return expected ? scoreAnswer(run, expected) : undefined;
    },
  };
}
