import type { Interrupt, Status } from '@skein/core';
import type { GraphResult } from './graph-types.js';
import type { RunState } from './run-state.js';

/** The result of a run from its state (a run that just ended, or one read back from the session). */
export function graphResult(
  state: RunState,
  status: Status,
  reason: string | undefined,
  totalNodes: number,
  executionTimeMs: number,
  interrupts: readonly Interrupt[] = [],
): GraphResult {
  const results = Object.values(state.results);
  return {
    status,
    results: { ...state.results },
    accumulatedUsage: { ...state.usage },
    executionCount: state.executionCount,
    executionTimeMs,
    transitions: [...state.transitions],
    ...(reason === undefined ? {} : { failureReason: reason }),
    totalNodes,
    completedCount: results.filter((r) => r.status === 'completed').length,
    failedCount: results.filter((r) => r.status === 'failed').length,
    executionOrder: [...state.executionOrder],
    ...(interrupts.length > 0 ? { interrupts: [...interrupts] } : {}),
  };
}
