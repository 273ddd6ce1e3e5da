import type { Usage } from '../model/model.js';

/** Calls, outcomes and time of one tool. */
export interface ToolMetrics {
  callCount: number;
  successCount: number;
  errorCount: number;
  totalTimeMs: number;
}

/** Token usage including prompt-cache reads and writes. */
export interface AccumulatedUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cacheReadInputTokens: number;
  cacheWriteInputTokens: number;
}

/** An empty usage record. */
export function emptyUsage(): AccumulatedUsage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 };
}

/** Adds `usage` into `into` (mutates `into`). */
export function addUsage(into: AccumulatedUsage, usage: Usage | AccumulatedUsage): void {
  into.inputTokens += usage.inputTokens;
  into.outputTokens += usage.outputTokens;
  into.totalTokens += usage.totalTokens;
  into.cacheReadInputTokens += usage.cacheReadInputTokens ?? 0;
  into.cacheWriteInputTokens += usage.cacheWriteInputTokens ?? 0;
}

/** What one invocation did: cycles, tokens, tools, model latency. */
export class AgentMetrics {
  /** Event-loop cycles (model calls that were not retried). */
  cycleCount = 0;
  /** Model calls, retries included. */
  modelCallCount = 0;
  /** Sum of the model latency the provider reported, in ms. */
  modelLatencyMs = 0;
  readonly usage: AccumulatedUsage = emptyUsage();
  /** Per tool name. */
  readonly toolMetrics: Record<string, ToolMetrics> = {};
  /** Wall-clock duration of the invocation, in ms. */
  durationMs = 0;
  /** Interrupts raised (questions asked of a person). */
  interruptCount = 0;
  /** Answers per model id: which model answered (behind `fallback` or `route`, the one that did). */
  readonly models: Record<string, number> = {};

  /** Records one tool call. */
  recordTool(name: string, ok: boolean, timeMs: number): void {
    const m = (this.toolMetrics[name] ??= { callCount: 0, successCount: 0, errorCount: 0, totalTimeMs: 0 });
    m.callCount++;
    if (ok) m.successCount++;
    else m.errorCount++;
    m.totalTimeMs += timeMs;
  }
}
