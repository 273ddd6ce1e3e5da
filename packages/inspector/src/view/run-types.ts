import type { NodeTransition } from '@skein/core';

/** One execution of a node, placed on the run's clock. */
export interface NodeExecution {
  nodeId: string;
  /** ms since the run's first transition. */
  startMs: number;
  /** Undefined while it runs (or when the run stopped inside it). */
  durationMs: number | undefined;
  /** `completed`, `failed`, `running`, `interrupted`, or `stopped` (a crash or cancellation ended the run inside it). */
  status: string;
  tokens: number | undefined;
  /** The transition that started it. */
  via: NodeTransition;
}

/** A graph's shape, when the run stored it. */
export interface GraphShape {
  nodes: string[];
  /** `join`: the edge is one source of a join (the target waits for all of them). */
  edges: { from: string; to: string; conditional: boolean; join?: boolean }[];
  entryPoints: string[];
}

/** An orchestrator's run, ready to draw. */
export interface RunView {
  id: string;
  type: string;
  status: string;
  task: string;
  /** Every model call of the run (see `tokensCounted`), input plus output. */
  totalTokens: number | undefined;
  /** How `totalTokens` was counted: by the run's budget (every call), or from the nodes' stored results. */
  tokensCounted: 'budget' | 'results' | undefined;
  /** Wall time from the first to the last transition, in ms. */
  spanMs: number;
  executions: NodeExecution[];
  transitions: NodeTransition[];
  handoffs: NodeTransition[];
  /** Interrupts with no later resume: waiting for an answer. */
  waiting: NodeTransition[];
  /** Stretches the run spent waiting for an answer (drawn as a marked gap on the page's timeline). */
  waits: WaitView[];
  /** Resumes of the run after a crash or an interrupt. */
  resumes: NodeTransition[];
  /** Nodes and edges: the stored shape, or the path taken. */
  shape: GraphShape;
  /** Each node's latest result, by node id. */
  results: Record<string, NodeResultView>;
}

/** A node's latest stored result. */
export interface NodeResultView {
  status: string;
  text: string;
  tokens: number | undefined;
  executionTimeMs: number | undefined;
  executionCount: number | undefined;
  error?: string;
  /** Prompt-cache reads and writes among `tokens`, when there were any. */
  cache?: { read: number; write: number };
  /** Which models answered the node's agent (model id -> answers), when the result says. */
  models?: Record<string, number>;
}

/** A stretch of a run spent waiting for an answer (an interrupt until its resume), on the run's clock. */
export interface WaitView {
  /** ms since the run's first transition: when the last work before the pause ended. */
  startMs: number;
  /** When the run resumed (or, for a wait still open, the run's last known time). */
  endMs: number;
  /** What it waited for (the interrupt's reason). */
  reason: string;
  /** True while nothing answered yet. */
  open: boolean;
}
