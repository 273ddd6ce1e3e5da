import type { Attributes } from '@opentelemetry/api';
import type { AccumulatedUsage, Usage } from '@skein/core';
import { ATTR } from './conventions.js';

/** Token counts of a model call, an invocation or a run. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** The `gen_ai.usage.*` attributes of `counts` (cache counts only when non-zero). */
export function usageAttributes(counts: TokenCounts): Attributes {
  const attributes: Attributes = { [ATTR.inputTokens]: counts.input, [ATTR.outputTokens]: counts.output };
  if (counts.cacheRead > 0) attributes[ATTR.cacheReadTokens] = counts.cacheRead;
  if (counts.cacheWrite > 0) attributes[ATTR.cacheCreationTokens] = counts.cacheWrite;
  return attributes;
}

/** Token counts of a node's or run's accumulated usage. */
export function countsOf(usage: AccumulatedUsage): TokenCounts {
  return {
    input: usage.inputTokens,
    output: usage.outputTokens,
    cacheRead: usage.cacheReadInputTokens,
    cacheWrite: usage.cacheWriteInputTokens,
  };
}

/** No tokens yet. */
export const noTokens = (): TokenCounts => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/** Adds a model call's usage to `into`. */
export function addTokens(into: TokenCounts, usage: Usage): void {
  into.input += usage.inputTokens;
  into.output += usage.outputTokens;
  into.cacheRead += usage.cacheReadInputTokens ?? 0;
  into.cacheWrite += usage.cacheWriteInputTokens ?? 0;
}

/** Adds `from` to `into`. */
export function addCounts(into: TokenCounts, from: TokenCounts): void {
  into.input += from.input;
  into.output += from.output;
  into.cacheRead += from.cacheRead;
  into.cacheWrite += from.cacheWrite;
}
