/**
 * The tool-calls scorer: calls that must have been made (names and arguments: exact, partial or a
 * zod schema), tools that must not have been asked for, tools that must not have run. Score: the
 * share of these checks that hold.
 */
import type { ToolCallExpectation, ToolExpectation } from '../case/eval-case.js';
import type { CaseRun, ToolCallRecord } from '../run/case-run.js';
import { argsMismatch, isSchemaLike } from './match-args.js';
import type { ScoreResult, Scorer } from './scorer.js';
import type { ZodNamespace } from './zod-namespace.js';
import { jsonObject } from '../case/json-check.js';

export interface ToolCallsScorerOptions {
  /** Default `toolCalls`. */
  name?: string;
  threshold?: number;
}

const toolsSchema = (z: ZodNamespace) => {
  const schemaLike = z.custom<unknown>(isSchemaLike, 'expected a zod schema');
  const call = z
    .object({
      name: z.string(),
      args: z.union([schemaLike, jsonObject(z)]).optional(),
      match: z.enum(['exact', 'partial']).optional(),
      agent: z.string().optional(),
    })
    .strict();
  return z
    .object({
      calls: z.array(call).optional(),
      notCalled: z.array(z.string()).optional(),
      notRun: z.array(z.string()).optional(),
    })
    .strict();
};

const shownInput = (c: ToolCallRecord): string => {
  const text = JSON.stringify(c.input) ?? '';
  return `${c.name}(${text.length > 100 ? `${text.slice(0, 97)}...` : text})`;
};

/** Finds an unused actual call for `expected`: the first with its name (and agent) whose arguments match. */
function takeCall(
  expected: ToolCallExpectation,
  calls: readonly ToolCallRecord[],
  used: Set<number>,
): { index: number } | { problem: string } {
  const candidates = calls
    .map((c, index) => ({ c, index }))
    .filter(
      ({ c, index }) => !used.has(index) && c.name === expected.name && (!expected.agent || c.agent === expected.agent),
    );
  if (candidates.length === 0)
    return { problem: `${expected.name} was not called${expected.agent ? ` by ${expected.agent}` : ''}` };
  if (expected.args === undefined) return { index: (candidates[0] as { index: number }).index };
  let first: string | undefined;
  for (const { c, index } of candidates) {
    const mismatch = argsMismatch(c.input, expected.args, expected.match ?? 'partial');
    if (!mismatch) return { index };
    first ??= `${shownInput(c)}: ${mismatch}`;
  }
  return { problem: `${expected.name} was not called with the expected arguments (${first ?? ''})` };
}

/** Scores the tool calls of one run (pure). */
export function scoreToolCalls(run: CaseRun, expected: ToolExpectation): ScoreResult {
  const problems: string[] = [];
  let checks = 0;
  const used = new Set<number>();
  for (const call of expected.calls ?? []) {
    checks++;
    const taken = takeCall(call, run.toolCalls, used);
    if ('index' in taken) used.add(taken.index);
    else problems.push(taken.problem);
  }
  for (const name of expected.notCalled ?? []) {
    checks++;
    const n = run.toolCalls.filter((c) => c.name === name).length;
    if (n > 0) problems.push(`${name} was called ${n === 1 ? 'once' : `${n} times`}`);
  }
  for (const name of expected.notRun ?? []) {
    checks++;
    const ran = run.toolCalls.find((c) => c.name === name && c.status === 'success');
    if (ran) problems.push(`${name} ran: ${shownInput(ran)}`);
  }
  const score = checks === 0 ? 1 : (checks - problems.length) / checks;
  const called = run.toolCalls.length ? run.toolCalls.map(shownInput).join(', ') : 'no tools';
  return {
    score,
    reason:
      problems.length === 0
        ? `all ${checks} tool checks hold (called ${called})`
        : `${problems.join('; ')} (called ${called})`,
  };
}

/**
 * @example toolCalls()   // reads case.expect.tools: { calls: [{ name: 'issue_refund', args: { amountEur: 60 } }], notRun: ['reverse_duplicate_charge'] }
 */
export function toolCalls(options: ToolCallsScorerOptions = {}): Scorer {
  return {
    name: options.name ?? 'toolCalls',
    expects: 'tools',
    schema: toolsSchema,
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    score(run, evalCase) {
      const expected = evalCase.expect.tools;
      return expected ? scoreToolCalls(run, expected) : undefined;
    },
  };
}
