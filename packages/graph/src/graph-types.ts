import type {
  AgentMemory,
  HistoryOptions,
  MultiAgentResult,
  MultiAgentTask,
  NodeResult,
  Runnable,
  OrchestratorGuardrails,
  SessionManager,
} from '@skein/core';

/** What a graph node runs: an agent, or a nested orchestrator (a Graph, a Swarm, anything `MultiAgentBase`). */
export type GraphNodeTarget = Runnable;

/** A node of a built graph. */
export interface GraphNode {
  /** Unique within the graph. */
  readonly id: string;
  /** The agent or orchestrator the node runs. */
  readonly target: GraphNodeTarget;
}

/** What an edge condition sees: the run so far. */
export interface GraphState {
  /** The task the run was invoked with. */
  readonly task: MultiAgentTask;
  /** Latest result of each node that ran, by node id. */
  readonly results: Readonly<Record<string, NodeResult>>;
  /** Node ids in the order their executions finished (a revisited node appears once per run). */
  readonly executionOrder: readonly string[];
  /** Node executions so far. */
  readonly executionCount: number;
}

/** Decides whether an edge is followed; called when its source finishes. Name the function to see the name in transitions. */
export type EdgeCondition = (state: GraphState) => boolean | Promise<boolean>;

/** An edge of a built graph: from one node, or a join of several (followed once all of them finished). */
export interface GraphEdge {
  /** Insertion index: ties resolve in this order. */
  readonly index: number;
  /** The source node, or the sources of a join. */
  readonly from: readonly string[];
  readonly to: string;
  /** True for `addEdge([...], to)`: waits for every source. */
  readonly join: boolean;
  readonly condition: EdgeCondition | undefined;
}

/** The resolved configuration of a graph (what `GraphBuilder.build()` produces). */
export interface GraphConfig {
  readonly id: string;
  readonly nodes: ReadonlyMap<string, GraphNode>;
  readonly edges: readonly GraphEdge[];
  readonly entryPoints: readonly string[];
  readonly maxNodeExecutions: number | undefined;
  readonly executionTimeoutMs: number | undefined;
  readonly nodeTimeoutMs: number | undefined;
  readonly resetOnRevisit: boolean;
  readonly maxConcurrency: number;
  readonly continueOnFailure: boolean;
  readonly sessionManager: SessionManager | undefined;
  /** What the session keeps of past steps (default: every step of every run). */
  readonly history: HistoryOptions | undefined;
  /** The graph's input guardrails (its task) and those every node runs with (output, tool). */
  readonly guardrails?: OrchestratorGuardrails | undefined;
  /** Long-term memory its agent nodes read (`setMemory`); the graph records each completed run. */
  readonly memory?: AgentMemory | undefined;
}

/** The outcome of a graph run. */
export interface GraphResult extends MultiAgentResult {
  /** Nodes in the graph. */
  totalNodes: number;
  /** Nodes whose latest execution completed. */
  completedCount: number;
  /** Nodes whose latest execution failed (or was cancelled by a hook). */
  failedCount: number;
  /** Node ids in the order their executions finished. */
  executionOrder: string[];
}
