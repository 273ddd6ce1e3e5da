/** A CaseRun to score in tests: every field defaulted, the ones a test cares about given. */
import { emptySpend } from '@skein/core';
import type { EvalCase } from '../case/eval-case.js';
import type { CaseRun } from '../run/case-run.js';

/** A finished run with nothing in it, plus `fields`. */
export function caseRun(fields: Partial<CaseRun> = {}): CaseRun {
  return {
    caseId: 'c1',
    repeat: 0,
    status: 'completed',
    text: '',
    turns: [],
    nodes: [],
    handoffs: [],
    toolCalls: [],
    interrupts: [],
    usage: emptySpend(),
    ...fields,
  };
}

/** A validated case with `expect` (and other fields) given. */
export function evalCase(fields: Partial<EvalCase> = {}): EvalCase {
  return { id: 'c1', turns: [{ input: 'hi' }], tags: [], expect: {}, thresholds: {}, metadata: {}, ...fields };
}
