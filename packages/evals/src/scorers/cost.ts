/**
 * The cost scorer: what a case's run spent (tokens, model and tool calls, cost with prices, wall
 * time) against limits. Each limit scores `min(1, limit / spent)`, so twice the limit scores 0.5;
 * the case's score is its worst limit.
 */
import type { CostLimits } from '../case/eval-case.js';
import type { CaseRun } from '../run/case-run.js';
import type { ScoreResult, Scorer } from './scorer.js';
import type { ZodNamespace } from './zod-namespace.js';

export interface CostScorerOptions {
  /** Default `cost`. */
  name?: string;
  /** Limits for every case; a case's `expect.cost` overrides them one by one. */
  limits?: CostLimits;
  threshold?: number;
}

const KEYS = ['totalTokens', 'inputTokens', 'outputTokens', 'modelCalls', 'toolCalls', 'costUsd', 'wallMs'] as const;
const UNITS: Record<(typeof KEYS)[number], string> = {
  totalTokens: 'tokens',
  inputTokens: 'input tokens',
  outputTokens: 'output tokens',
  modelCalls: 'model calls',
  toolCalls: 'tool calls',
  costUsd: 'USD',
  wallMs: 'ms',
};

const costSchema = (z: ZodNamespace) =>
  z.object(Object.fromEntries(KEYS.map((k) => [k, z.number().nonnegative().optional()]))).strict();

const round = (n: number): string => (Number.isInteger(n) ? String(n) : n.toPrecision(3));

/** Scores what one run spent against `limits` (pure). */
export function scoreCost(run: CaseRun, limits: CostLimits): ScoreResult {
  let score = 1;
  const parts: string[] = [];
  for (const key of KEYS) {
    const limit = limits[key];
    if (limit === undefined) continue;
    const spent = run.usage[key];
    const part = spent <= limit ? 1 : limit === 0 ? 0 : limit / spent;
    score = Math.min(score, part);
    parts.push(`${round(spent)} ${UNITS[key]} (limit ${round(limit)}${part < 1 ? ': over' : ''})`);
  }
  return { score, reason: parts.length ? parts.join(', ') : 'no limits' };
}

/**
 * @example cost({ limits: { totalTokens: 2000, wallMs: 10_000 } })   // and per case: expect.cost: { modelCalls: 6 }
 */
export function cost(options: CostScorerOptions = {}): Scorer {
  return {
    name: options.name ?? 'cost',
    expects: 'cost',
    schema: costSchema,
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    score(run, evalCase) {
      const own = evalCase.expect.cost;
      if (!own && !options.limits) return undefined;
      return scoreCost(run, { ...options.limits, ...own });
    },
  };
}
