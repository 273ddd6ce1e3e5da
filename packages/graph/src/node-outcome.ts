import {
  addUsage,
  budgetStopOf,
  emptyUsage,
  isAgentResult,
  withSourcePrefix,
  type AccumulatedUsage,
  type AgentResult,
  type GuardrailTripped,
  type Interrupt,
  type MultiAgentResult,
  type NodeResult,
} from '@skein/core';

/** What describing a node's outcome reads of the node run (`NodeRun` has it). */
export interface NodeCall {
  readonly node: { readonly id: string };
  readonly executionCount: number;
  readonly timeoutMs: number | undefined;
}

/** A node a guardrail blocked: failed, with the trip (the run then ends with `GuardrailTripped`). */
export function trippedResult(run: NodeCall, tripped: GuardrailTripped, started: number): NodeResult {
  const outcome = tripped.result;
  const usage =
    typeof outcome === 'object' && outcome !== null && ('stopReason' in outcome || 'accumulatedUsage' in outcome)
      ? usageOf(outcome as AgentResult | MultiAgentResult)
      : emptyUsage();
  return {
    nodeId: run.node.id,
    executionCount: run.executionCount,
    status: 'failed',
    text: '',
    error: tripped.message,
    guardrail: tripped.trip,
    usage,
    executionTimeMs: performance.now() - started,
  };
}

/** The node's result from what its target returned: waiting for a person, stopped by the budget, completed or failed. */
export function describeOutcome(
  run: NodeCall,
  outcome: AgentResult | MultiAgentResult,
  signal: AbortSignal,
  timedOut: boolean,
  started: number,
): NodeResult {
  const nodeId = run.node.id;
  const { executionCount } = run;
  const text = textOf(outcome);
  const usage = usageOf(outcome);
  const models = isAgentResult(outcome) ? outcome.metrics.models : {};
  const result = outcome;
  const interrupts = timedOut ? [] : interruptsOf(outcome, nodeId);
  if (interrupts.length > 0) {
    const executionTimeMs = performance.now() - started;
    return {
      nodeId,
      executionCount,
      status: 'interrupted',
      text,
      result,
      interrupts,
      usage,
      models,
      executionTimeMs,
    };
  }
  const budgetExceeded = timedOut ? undefined : budgetStopOf(outcome);
  if (budgetExceeded) {
    const executionTimeMs = performance.now() - started;
    return {
      nodeId,
      executionCount,
      status: 'budgetExceeded',
      text,
      result,
      budgetExceeded,
      usage,
      models,
      executionTimeMs,
    };
  }
  const failure = timedOut ? timeoutText(nodeId, run.timeoutMs) : failureOf(outcome, signal);
  const executionTimeMs = performance.now() - started;
  // Literals rather than spreads (each with the keys in the order results always had): runs for every node.
  if (failure === undefined)
    return {
      nodeId,
      executionCount,
      status: 'completed',
      text,
      result,
      usage,
      models,
      executionTimeMs,
    };
  return {
    nodeId,
    executionCount,
    status: 'failed',
    text,
    result,
    error: failure,
    usage,
    models,
    executionTimeMs,
  };
}

/**
 * What a node waits for, with the node's path as source: an agent's own name is replaced by the node
 * id (`billing`, `billing/expert` for an agent it uses as a tool); a nested orchestrator's paths are
 * prefixed with it (`desk/refund`).
 */
function interruptsOf(outcome: AgentResult | MultiAgentResult, nodeId: string): Interrupt[] {
  if (isAgentResult(outcome)) {
    if (outcome.stopReason !== 'interrupt') return [];
    return outcome.interrupts.map((i) => ({
      ...i,
      source: [nodeId, ...i.source.split('/').slice(1)].join('/'),
    }));
  }
  if (outcome.status !== 'interrupted' || !outcome.interrupts) return [];
  return outcome.interrupts.map((i) => withSourcePrefix(i, nodeId));
}

function failureOf(outcome: AgentResult | MultiAgentResult, signal: AbortSignal): string | undefined {
  if (isAgentResult(outcome)) {
    if (outcome.stopReason !== 'cancelled') return undefined;
    const reason: unknown = signal.reason;
    return reason instanceof Error ? reason.message : 'The node was cancelled.';
  }
  if (outcome.status === 'completed') return undefined;
  return outcome.failureReason ?? `The nested orchestrator ended with status ${outcome.status}.`;
}

export function timeoutText(nodeId: string, ms: number | undefined): string {
  return `Node ${nodeId} timed out after ${String(ms)} ms.`;
}

function usageOf(outcome: AgentResult | MultiAgentResult): AccumulatedUsage {
  const usage = emptyUsage();
  addUsage(usage, isAgentResult(outcome) ? outcome.metrics.usage : outcome.accumulatedUsage);
  return usage;
}

/** An agent's final text; a nested orchestrator's is its last node's. */
function textOf(outcome: AgentResult | MultiAgentResult): string {
  if (isAgentResult(outcome)) return String(outcome);
  const order = (outcome as { executionOrder?: unknown }).executionOrder;
  const last =
    Array.isArray(order) && typeof order[order.length - 1] === 'string'
      ? (order[order.length - 1] as string)
      : lastNodeOf(outcome);
  return last === undefined ? '' : (outcome.results[last]?.text ?? '');
}

function lastNodeOf(outcome: MultiAgentResult): string | undefined {
  for (let i = outcome.transitions.length - 1; i >= 0; i--) {
    const t = outcome.transitions[i];
    for (const id of [t?.from, t?.to])
      if (typeof id === 'string' && outcome.results[id]?.status === 'completed') return id;
  }
  const keys = Object.keys(outcome.results);
  return keys[keys.length - 1];
}
