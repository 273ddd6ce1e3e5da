/** The options of `evaluate()`, and their checks. */
import { ConfigurationError, type Budget, type RunBudget, type SessionManager } from '@skein/core';
import { CASE_ID } from '../case/case-schema.js';
import type { CaseInput, EvalCase } from '../case/eval-case.js';
import type { EvalTarget } from '../run/target.js';
import type { Scorer } from '../scorers/scorer.js';
import type { CaseResult } from './results-log.js';

/** Where each run of a case is stored. */
export interface EvalSessions {
  /** The session manager of one run (a `FileSessionManager`, an `S3SessionManager`...). */
  open(sessionId: string): SessionManager;
  /** Where the inspector finds them (a directory or `s3://bucket/prefix`): results link each run to its page. */
  location?: string;
}

export interface EvaluateOptions {
  /** Builds a fresh Agent, Graph or Swarm for each run of a case. */
  target: EvalTarget;
  /** The cases, or the path of a JSONL (or JSON) file of cases. */
  cases: readonly CaseInput[] | string;
  scorers: readonly Scorer[];
  /** Runs only the cases it keeps (by tag, id or metadata); the others are left out of the results. */
  filter?: (evalCase: EvalCase) => boolean;
  /** The evaluation's name: part of every session id, and checked on resume. Default `eval`. */
  name?: string;
  /** Runs at once. Default 4. */
  concurrency?: number;
  /** Runs per case (pass rate, pass@k, flaky cases). Default 1. */
  repeats?: number;
  /** The k of pass@k. Default: `repeats`. */
  passAtK?: number;
  /** Limits over every run of every case (a run tree's budget); reached: no new run starts. */
  budget?: Budget | RunBudget;
  /** A directory: `results.jsonl` (appended as runs finish) and `summary.json`. Default: nothing written. */
  out?: string;
  /**
   * Continue the evaluation stored in `out` (default true): finished runs of unchanged cases are kept.
   * `false` starts over (the file keeps the earlier runs; new runs get new session ids).
   */
  resume?: boolean;
  /** Where runs are stored; default an in-memory store per evaluation; `false`: not stored. */
  sessions?: EvalSessions | false;
  signal?: AbortSignal;
  /** Called after each run is scored (progress output). */
  onResult?: (result: CaseResult) => void;
}

export interface ResolvedOptions {
  name: string;
  concurrency: number;
  repeats: number;
  passAtK: number;
}

function positiveInteger(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigurationError(`${what} must be a whole number of 1 or more (got ${String(value)}).`);
  return value;
}

export function resolveOptions(options: EvaluateOptions): ResolvedOptions {
  if (typeof options.target !== 'function')
    throw new ConfigurationError(
      'target must be a function that builds an Agent, Graph or Swarm for each case: (ctx) => ...',
    );
  if (!Array.isArray(options.scorers) || options.scorers.length === 0)
    throw new ConfigurationError('scorers must list at least one scorer, e.g. [trajectory(), answer()].');
  const names = options.scorers.map((s) => s.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice)
    throw new ConfigurationError(`Two scorers are named "${twice}"; give one of them another name ({ name }).`);
  const name = options.name ?? 'eval';
  if (!CASE_ID.test(name) || name.includes('..'))
    throw new ConfigurationError(
      `name ${JSON.stringify(name)} is part of every session id: use A-Z a-z 0-9 _ . @ = + - starting with a letter or digit.`,
    );
  const repeats = positiveInteger(options.repeats, 1, 'repeats');
  return {
    name,
    concurrency: positiveInteger(options.concurrency, 4, 'concurrency'),
    repeats,
    passAtK: positiveInteger(options.passAtK, repeats, 'passAtK'),
  };
}
