import type { MemoryTarget } from '../memory/memory-target.js';
import type { AgentStreamEvent } from '../agent/agent-events.js';
import type { AgentResult } from '../agent/agent-result.js';
import type { Prompt } from '../agent/prompt.js';
import type { AccumulatedUsage } from '../metrics/agent-metrics.js';
import type { NodeTransition } from '../session/session-types.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { Interrupt } from '../interrupt/interrupt.js';
import type { BudgetExceeded, BudgetWarning, UsageTree } from '../budget/budget-types.js';
import type { BudgetOption } from '../budget/open-scope.js';
import type { GuardrailTrip } from '../errors/guardrail-errors.js';
import type { InvocationGuardrails } from '../guardrails/guardrail.js';
import type { Principal } from '../doors/principal.js';
import type { EventPlace } from '../events/event-place.js';

/**
 * Where an orchestrator or one of its nodes stands. `budgetExceeded`: a run-tree budget limit stopped
 * it; like `interrupted`, the run is not finished and resumes (with a session) on the next invoke.
 */
export type Status = 'pending' | 'executing' | 'completed' | 'failed' | 'interrupted' | 'budgetExceeded';

/** True for a stored run that is not finished and resumes on the next invoke (`executing`, `interrupted`, `budgetExceeded`). */
export function isUnfinished(status: unknown): boolean {
  return status === 'executing' || status === 'interrupted' || status === 'budgetExceeded';
}

/** The outcome of one node. */
export interface NodeResult {
  nodeId: string;
  status: Status;
  /** The node's final text (an agent's last message, a nested orchestrator's last node). */
  text: string;
  /** The agent result or nested orchestrator result, when the node ran in this process. */
  result?: AgentResult | MultiAgentResult;
  /** Why the node failed. */
  error?: string;
  usage: AccumulatedUsage;
  /** Which models answered the node's agent, with how many answers each (behind `fallback` or `route`, the one that did). */
  models?: Record<string, number>;
  executionTimeMs: number;
  /** How many times the node ran in this run. */
  executionCount: number;
  /** What the node waits for (`status: 'interrupted'`), each with its node path as `source`. */
  interrupts?: Interrupt[];
  /** The budget limit that stopped the node (`status: 'budgetExceeded'`). */
  budgetExceeded?: BudgetExceeded;
  /** The guardrail that blocked the node (`status: 'failed'`; the run ends with `GuardrailTripped`). */
  guardrail?: GuardrailTrip;
}

/** The outcome of an orchestrator run. */
export interface MultiAgentResult {
  status: Status;
  /** Latest result of each node that ran, by node id. */
  results: Record<string, NodeResult>;
  accumulatedUsage: AccumulatedUsage;
  /** Node executions in all. */
  executionCount: number;
  executionTimeMs: number;
  /** The node-transition history. */
  transitions: NodeTransition[];
  /** Why the run failed, when it did. */
  failureReason?: string;
  /** What the run waits for (`status: 'interrupted'`): answer each with an `interruptResponse` to resume. */
  interrupts?: Interrupt[];
  /** What the run tree spent, per node and per agent, when it ran under a budget. */
  usage?: UsageTree;
  /** The budget limit that stopped the run (`status: 'budgetExceeded'`). */
  budgetExceeded?: BudgetExceeded;
  /** The task's text as the run kept it, when the orchestrator's input guardrails rewrote it (a redaction). */
  rewrittenTask?: string;
}

/** What an orchestrator runs on: text, content blocks, or messages. */
export type MultiAgentTask = Prompt;

/** Options of one orchestrator run. */
export interface MultiAgentInvokeOptions {
  signal?: AbortSignal;
  invocationState?: InvocationState;
  /**
   * Limits over the whole run tree (every node, nested orchestrator and agent-as-tool draws from
   * them), or a shared `RunBudget`. Reached: nothing new starts, running nodes stop at their next
   * safe point, and the run ends with status `budgetExceeded`. Default: the enclosing run's budget.
   */
  budget?: BudgetOption | undefined;
  /** Guardrails every node and member runs with, and where this run sits in an enclosing one (`path`). */
  guardrails?: InvocationGuardrails | undefined;
  /** Who asked (a server's principal): every node's guardrails read it as `context.principal`. */
  principal?: Principal | undefined;
  /** Whose long-term memory the run reads and writes (an orchestrator holding a memory; nested ones get it too). */
  memory?: MemoryTarget | undefined;
  /**
   * How deep nested runs' events reach this stream (see `EventPlace`): `0` yields this run's own
   * events and its nodes' (no agents they use as tools, no members of nested orchestrators). Default: all.
   */
  depth?: number | undefined;
}

/**
 * Events of an orchestrator's stream; it returns the result when done. Every event carries `path`
 * and `depth` (see `EventPlace`): the orchestrator's own (`nodeStart`, `nodeStop`, `transition`) its
 * run's path (empty for the outermost), a `nodeStream` the place of the event it wraps.
 */
export type MultiAgentStreamEvent = MultiAgentEventData & EventPlace;

/** An orchestrator's event before it is stamped with its place (see {@link MultiAgentStreamEvent}). */
export type MultiAgentEventData =
  | { type: 'nodeStart'; nodeId: string }
  | {
      type: 'nodeStream';
      nodeId: string;
      event: AgentStreamEvent | MultiAgentStreamEvent;
    }
  | { type: 'nodeStop'; nodeId: string; result: NodeResult }
  | { type: 'transition'; transition: NodeTransition }
  /** A budget limit crossed its warning threshold when this orchestrator started node `nodeId`. */
  | { type: 'budgetWarning'; nodeId: string; warning: BudgetWarning };

/** What Graph and Swarm share, so each can run the other as a node. */
export interface MultiAgentBase {
  readonly id: string;
  readonly kind: 'multiAgent';
  invoke(task: MultiAgentTask, options?: MultiAgentInvokeOptions): Promise<MultiAgentResult>;
  stream(
    task: MultiAgentTask,
    options?: MultiAgentInvokeOptions,
  ): AsyncGenerator<MultiAgentStreamEvent, MultiAgentResult>;
}

/** The `nodeStream` event wrapping `event` of node `nodeId`: it carries the place of the event it wraps. */
export function nodeStreamEvent(
  nodeId: string,
  event: AgentStreamEvent | MultiAgentStreamEvent,
): MultiAgentStreamEvent {
  return {
    type: 'nodeStream',
    nodeId,
    event,
    path: event.path,
    depth: event.depth,
  };
}
