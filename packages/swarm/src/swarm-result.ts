import type { JsonObject, MultiAgentResult, NodeResult, NodeTransition } from '@skein/core';
import type { SwarmRunState } from './swarm-state.js';

/** The outcome of a swarm run. */
export interface SwarmResult extends MultiAgentResult {
  /** Node ids in execution order. */
  nodeHistory: string[];
  /** Context shared through transfers, by the node that shared it. */
  sharedContext: Record<string, JsonObject>;
  /** Transfers made. */
  handoffCount: number;
  /** The node that ran last (the one that answered, when the run completed). */
  finalNodeId: string | undefined;
  /** The final text of the node that ran last. */
  text: string;
  /** Repair turns given to members whose final text announced a transfer they did not call (see `repairNarratedHandoffs`). */
  repairTurns: number;
}

/** A run's result from its state, node results, transitions and shared context (live or read back). */
export function swarmResult(
  state: SwarmRunState,
  results: Record<string, NodeResult>,
  transitions: readonly NodeTransition[],
  sharedContext: Record<string, JsonObject>,
): SwarmResult {
  const last = state.nodeHistory[state.nodeHistory.length - 1];
  return {
    status: state.status,
    results: { ...results },
    accumulatedUsage: { ...state.usage },
    executionCount: state.nodeHistory.length,
    executionTimeMs: state.elapsedMs,
    transitions: [...transitions],
    ...(state.failureReason !== undefined ? { failureReason: state.failureReason } : {}),
    nodeHistory: [...state.nodeHistory],
    sharedContext: structuredClone(sharedContext),
    handoffCount: state.handoffCount,
    finalNodeId: last,
    text: last !== undefined ? (results[last]?.text ?? '') : '',
    repairTurns: state.repairTurns,
  };
}
