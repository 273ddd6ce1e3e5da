/**
 * Something that runs a task: an `Agent`, or an orchestrator (Graph, Swarm, anything implementing
 * `MultiAgentBase`). This is the one place that tells them apart, and their results too: by `kind`
 * (`'agent'`, `'multiAgent'`), which holds across two copies of @skein/core where `instanceof` does not.
 */
import type { AgentResult } from '../agent/agent-result.js';
import type { Agent } from '../agent/agent.js';
import type { MultiAgentBase, MultiAgentResult } from './multi-agent.js';

/** What runs a task: an `Agent`, or an orchestrator (Graph, Swarm, anything implementing `MultiAgentBase`). */
export type Runnable = Agent | MultiAgentBase;

/** What a runnable is: `'agent'` or `'multiAgent'` (its `kind`). */
export type RunnableKind = Runnable['kind'];

/** The kind of `value` when it is an agent or an orchestrator (a `kind` and an `invoke` method), else `undefined`. */
export function runnableKind(value: unknown): RunnableKind | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, invoke } = value as { kind?: unknown; invoke?: unknown };
  if (typeof invoke !== 'function') return undefined;
  return kind === 'agent' || kind === 'multiAgent' ? kind : undefined;
}

/** True when `value` is an agent (hooks, tools and handoffs hand agents out as `AgentHandle`: this narrows one to `Agent`). */
export function isAgent(value: unknown): value is Agent {
  return runnableKind(value) === 'agent';
}

/** True when `value` is an orchestrator (not an agent). */
export function isMultiAgent(value: unknown): value is MultiAgentBase {
  return runnableKind(value) === 'multiAgent';
}

/** True when `value` is an agent or an orchestrator. */
export function isRunnable(value: unknown): value is Runnable {
  return runnableKind(value) !== undefined;
}

/** True when a run's result is an agent's `AgentResult` (an orchestrator's is a `MultiAgentResult`). */
export function isAgentResult(result: AgentResult | MultiAgentResult): result is AgentResult {
  return 'stopReason' in result;
}
