/**
 * The trajectory scorer: which nodes or members ran (in the order they started) and the handoffs
 * between them, against `case.expect.trajectory`, matched exactly, in order, in any order, as a
 * subset or as a superset.
 */
import type { MatchMode, TrajectoryExpectation } from '../case/eval-case.js';
import type { CaseRun } from '../run/case-run.js';
import { matchSequence } from './match-sequence.js';
import type { ScoreResult, Scorer } from './scorer.js';
import type { ZodNamespace } from './zod-namespace.js';

export interface TrajectoryScorerOptions {
  /** Default: `trajectory`. */
  name?: string;
  /** Used when a case's expectation names no `match`. Default `exact`. */
  match?: MatchMode;
  threshold?: number;
}

const MODES = ['exact', 'inOrder', 'anyOrder', 'subset', 'superset'] as const;

/** The expectation's schema (zod is loaded only when cases are validated). */
const trajectorySchema = (z: ZodNamespace) =>
  z
    .object({
      nodes: z.array(z.string()).optional(),
      handoffs: z.array(z.string().regex(/^[^>]+>[^>]+$/, 'write a handoff as "from>to"')).optional(),
      match: z.enum(MODES).optional(),
    })
    .strict()
    .refine((t) => t.nodes !== undefined || t.handoffs !== undefined, 'give nodes, handoffs or both');

/** Scores the nodes and handoffs of one run against an expectation (pure). */
export function scoreTrajectory(run: CaseRun, expected: TrajectoryExpectation, fallback: MatchMode): ScoreResult {
  const mode = expected.match ?? fallback;
  const parts: ScoreResult[] = [];
  if (expected.nodes) parts.push(matchSequence('ran', run.nodes, expected.nodes, mode));
  if (expected.handoffs) {
    const handoffs = run.handoffs.map((h) => `${h.from}>${h.to}`);
    parts.push(matchSequence('handoffs', handoffs, expected.handoffs, mode));
  }
  const score = parts.reduce((min, p) => Math.min(min, p.score), 1);
  return { score, reason: `${parts.map((p) => p.reason).join('; ')} [${mode}]` };
}

/**
 * @example trajectory()   // reads case.expect.trajectory: { nodes: ['triage', 'billing'], match: 'inOrder' }
 */
export function trajectory(options: TrajectoryScorerOptions = {}): Scorer {
  const fallback = options.match ?? 'exact';
  return {
    name: options.name ?? 'trajectory',
    expects: 'trajectory',
    schema: trajectorySchema,
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    score(run, evalCase) {
      const expected = evalCase.expect.trajectory;
      return expected ? scoreTrajectory(run, expected, fallback) : undefined;
    },
  };
}
