import type { JsonObject, MultiAgentResult } from '@skein/core';

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
}
