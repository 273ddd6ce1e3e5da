/**
 * Budget accounting as pure functions over plain counters: what a model call costs, what it
 * reserves, whether a limit is reached, and which warnings a spend crosses.
 */
import type { Usage } from '../model/model.js';
import {
  BUDGET_LIMITS,
  type Budget,
  type BudgetExceeded,
  type BudgetLimit,
  type BudgetSpend,
  type BudgetWarning,
  type ModelPrice,
} from './budget-types.js';

/** Output tokens a model call reserves when neither the model nor the budget says. */
export const DEFAULT_RESERVE_TOKENS = 4096;

/** The limits checked before a model call starts. */
export const MODEL_CALL_LIMITS: readonly BudgetLimit[] = [
  'totalTokens',
  'inputTokens',
  'outputTokens',
  'costUsd',
  'modelCalls',
  'wallMs',
];

/** The limits checked before a node starts (a node runs model calls, so those too). */
export const NODE_LIMITS: readonly BudgetLimit[] = [...MODEL_CALL_LIMITS, 'nodeExecutions'];

/** Cost of `usage` at `price`, in USD (cache reads and writes at their own price, else the input price). */
export function costOf(price: ModelPrice | undefined, usage: Usage): number {
  if (!price) return 0;
  const cacheRead = (usage.cacheReadInputTokens ?? 0) * (price.cacheReadPerMTok ?? price.inputPerMTok);
  const cacheWrite = (usage.cacheWriteInputTokens ?? 0) * (price.cacheWritePerMTok ?? price.inputPerMTok);
  return (
    (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok + cacheRead + cacheWrite) / 1e6
  );
}

/** What a model call reserves before it starts: one call, and `maxTokens` output tokens (and their cost). */
export function modelReservation(maxTokens: number, price: ModelPrice | undefined): BudgetSpend {
  return {
    totalTokens: maxTokens,
    inputTokens: 0,
    outputTokens: maxTokens,
    costUsd: price ? (maxTokens * price.outputPerMTok) / 1e6 : 0,
    toolCalls: 0,
    modelCalls: 1,
    nodeExecutions: 0,
    wallMs: 0,
  };
}

/** What a finished model call spent. */
export function modelSpend(usage: Usage, price: ModelPrice | undefined): BudgetSpend {
  const spend: BudgetSpend = {
    totalTokens: usage.totalTokens,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: costOf(price, usage),
    toolCalls: 0,
    modelCalls: 1,
    nodeExecutions: 0,
    wallMs: 0,
  };
  if (usage.cacheReadInputTokens) spend.cacheReadInputTokens = usage.cacheReadInputTokens;
  if (usage.cacheWriteInputTokens) spend.cacheWriteInputTokens = usage.cacheWriteInputTokens;
  return spend;
}

/** Adds `delta` into `into` (`sign` -1 subtracts); the cache counters appear once non-zero. */
export function addSpend(into: BudgetSpend, delta: BudgetSpend, sign: 1 | -1 = 1): void {
  for (const k of BUDGET_LIMITS) into[k] += sign * delta[k];
  if (delta.cacheReadInputTokens)
    into.cacheReadInputTokens = (into.cacheReadInputTokens ?? 0) + sign * delta.cacheReadInputTokens;
  if (delta.cacheWriteInputTokens)
    into.cacheWriteInputTokens = (into.cacheWriteInputTokens ?? 0) + sign * delta.cacheWriteInputTokens;
}

/**
 * The first of `which` limits that `spent` (plus `reserved`, when given) has reached, or `undefined`.
 * A limit is reached when the counter is at or past it: nothing more of that kind may start.
 */
export function reachedLimit(
  limits: Budget,
  which: readonly BudgetLimit[],
  spent: BudgetSpend,
  reserved?: BudgetSpend,
): BudgetExceeded | undefined {
  for (const limit of which) {
    const max = limits[limit];
    if (max === undefined) continue;
    const used = spent[limit] + (reserved ? reserved[limit] : 0);
    if (used >= max) return { limit, max, spent: spent[limit] };
  }
  return undefined;
}

/** The limits whose warning threshold `spent` crossed and that were not warned about yet (adds them to `warned`). */
export function crossedWarnings(limits: Budget, spent: BudgetSpend, warned: Set<BudgetLimit>): BudgetWarning[] {
  const at = limits.warnAt ?? 0.8;
  if (at >= 1) return [];
  let out: BudgetWarning[] | undefined;
  for (const limit of BUDGET_LIMITS) {
    const max = limits[limit];
    if (max === undefined || max <= 0 || warned.has(limit)) continue;
    const fraction = spent[limit] / max;
    if (fraction < at) continue;
    warned.add(limit);
    (out ??= []).push({ limit, max, spent: spent[limit], fraction });
  }
  return out ?? [];
}

/** A message naming the limit, for stop reasons and error tool results. */
export function describeExceeded(e: BudgetExceeded): string {
  const unit = e.limit === 'costUsd' ? ` USD` : e.limit === 'wallMs' ? ' ms' : '';
  return `the run's ${e.limit} budget of ${e.max}${unit} is spent (${round(e.spent)}${unit})`;
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
