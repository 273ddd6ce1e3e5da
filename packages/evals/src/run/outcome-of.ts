/**
 * Reads what a case needs from an invocation's result (pure): its status, its final text, the
 * nodes that started and the handoffs, for an Agent's `AgentResult` and an orchestrator's
 * `MultiAgentResult` alike.
 */
import {
  isAgentResult,
  type AgentResult,
  type Interrupt,
  type JsonValue,
  type MultiAgentResult,
  type NodeTransition,
} from '@skein/core';
import type { RunStatus } from './case-run.js';

export type AnyResult = AgentResult | MultiAgentResult;

/** The run's status: an orchestrator's own; an agent's stop reason mapped onto the same words. */
export function statusOf(result: AnyResult): RunStatus {
  if (!isAgentResult(result)) return result.status;
  switch (result.stopReason) {
    case 'interrupt':
      return 'interrupted';
    case 'budget_exceeded':
      return 'budgetExceeded';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'completed';
  }
}

export function interruptsOf(result: AnyResult): readonly Interrupt[] {
  return result.interrupts ?? [];
}

/**
 * The final answer: an agent's final text; a result's own `text` (a Swarm's); else the text of the
 * node the run completed from (a Graph's last node), else of the last node that started.
 */
export function textOf(result: AnyResult): string {
  if (isAgentResult(result)) return String(result);
  const own = (result as { text?: unknown }).text;
  if (typeof own === 'string') return own;
  const last = [...result.transitions].reverse();
  const from = last.find((t) => t.kind === 'complete')?.from ?? last.find((t) => t.to !== null)?.to;
  return (from ? result.results[from]?.text : undefined) ?? '';
}

/** Nodes in the order they started (a resume re-enters a node; it is not a new start) and the handoffs. */
export function trajectoryOf(transitions: readonly NodeTransition[]): {
  nodes: string[];
  handoffs: { from: string; to: string }[];
} {
  const nodes: string[] = [];
  const handoffs: { from: string; to: string }[] = [];
  for (const t of transitions) {
    if (t.to === null || t.kind === 'resume') continue;
    nodes.push(t.to);
    if (t.kind === 'handoff' && t.from !== null) handoffs.push({ from: t.from, to: t.to });
  }
  return { nodes, handoffs };
}

/** An agent's structured output as JSON (what the results file can keep), when it has one. */
export function structuredOutputOf(result: AnyResult): JsonValue | undefined {
  if (!isAgentResult(result) || result.structuredOutput === undefined) return undefined;
  return JSON.parse(JSON.stringify(result.structuredOutput)) as JsonValue;
}
