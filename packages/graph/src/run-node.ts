import {
  GuardrailTripped,
  TimeoutError,
  addUsage,
  budgetStopOf,
  emptyUsage,
  type BudgetScope,
  isAgentResult,
  isMultiAgent,
  type AgentResult,
  withSourcePrefix,
  nodeStreamEvent,
  type AccumulatedUsage,
  type Interrupt,
  type InvocationGuardrails,
  type InvocationState,
  type Principal,
  type MemoryTarget,
  type MultiAgentResult,
  type MultiAgentEventData,
  type NodeResult,
  type Prompt,
} from '@skein/core';
import type { GraphNode } from './graph-types.js';

/** What one node execution needs. */
export interface NodeRun {
  node: GraphNode;
  /** `undefined`: an agent node continues from its history (it was stopped and resumes). */
  input: Prompt | undefined;
  /** The first part of the idempotency keys of the node agent's tool calls (see `InvokeOptions`). */
  idempotencyScope: string;
  /** Aborted when the whole run stops (cancellation, execution timeout, fail-fast). */
  runSignal: AbortSignal;
  timeoutMs: number | undefined;
  invocationState: InvocationState;
  /** The node's execution number in this run (1 for the first). */
  executionCount: number;
  /** Receives the node's own events, wrapped as `nodeStream`. */
  onEvent: ((event: MultiAgentEventData) => void) | undefined;
  /** How deep nested runs' events reach the stream (`MultiAgentInvokeOptions.depth`). */
  depth?: number | undefined;
  /** The node's place in the run's budget (`undefined`: no budget). */
  budget?: BudgetScope | undefined;
  /** The guardrails the node runs with (the graph's and an enclosing run's), and its path. */
  guardrails?: InvocationGuardrails | undefined;
  /** Who asked, for the node's guardrails. */
  principal?: Principal | undefined;
  /** Whose long-term memory the node reads (`undefined`: none). */
  memory?: MemoryTarget | undefined;
}

/**
 * Runs one node to its end and describes the outcome; never throws. The node's AbortSignal fires
 * on its timeout or when the run stops, and reaches the model call and tools (or the nested
 * orchestrator). A cancelled, crashed or timed-out node is `failed` with the reason in `error`.
 */
export async function runNode(run: NodeRun): Promise<NodeResult> {
  const { node, runSignal, timeoutMs } = run;
  // Without a node timeout the run's signal is the only thing that stops the node, so the node runs
  // on it directly (same signal reason) instead of on a controller of its own that mirrors it.
  const limit = timeoutMs === undefined ? undefined : new NodeTimeout(node.id, timeoutMs, runSignal);
  const signal = limit ? limit.signal : runSignal;
  const started = performance.now();
  try {
    const outcome = await drive(run, signal);
    return describeOutcome(run, outcome, signal, limit?.timedOut === true, started);
  } catch (error) {
    if (GuardrailTripped.is(error)) return trippedResult(run, error, started);
    const timedOut = limit?.timedOut === true;
    const message = timedOut ? timeoutText(node.id, timeoutMs) : error instanceof Error ? error.message : String(error);
    const usage = emptyUsage();
    const { executionCount } = run;
    const executionTimeMs = performance.now() - started;
    return {
      nodeId: node.id,
      executionCount,
      status: 'failed',
      text: '',
      error: message,
      usage,
      executionTimeMs,
    };
  } finally {
    limit?.clear();
  }
}

/** A node a guardrail blocked: failed, with the trip (the run then ends with `GuardrailTripped`). */
function trippedResult(run: NodeRun, tripped: GuardrailTripped, started: number): NodeResult {
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

/** A node's own abort controller, fired by its timeout or by the run's signal. */
class NodeTimeout {
  readonly #controller = new AbortController();
  readonly #runSignal: AbortSignal;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #onRunAbort = (): void => this.#controller.abort(this.#runSignal.reason);
  timedOut = false;

  constructor(nodeId: string, timeoutMs: number, runSignal: AbortSignal) {
    this.#runSignal = runSignal;
    if (runSignal.aborted) this.#onRunAbort();
    else runSignal.addEventListener('abort', this.#onRunAbort, { once: true });
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.#controller.abort(new TimeoutError(`Node ${nodeId} timed out after ${timeoutMs} ms.`, timeoutMs));
    }, timeoutMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#runSignal.removeEventListener('abort', this.#onRunAbort);
  }
}

/** The node's result from what its target returned: waiting for a person, stopped by the budget, completed or failed. */
function describeOutcome(
  run: NodeRun,
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
 * Runs the node's target: through `stream()` when someone reads the node's events (each wrapped as
 * `nodeStream`), else through `invoke()`, which makes no events at all (the result is the same).
 */
async function drive(run: NodeRun, signal: AbortSignal): Promise<AgentResult | MultiAgentResult> {
  const options = {
    signal,
    invocationState: run.invocationState,
    ...(run.budget ? { budget: run.budget } : {}),
    ...(run.guardrails ? { guardrails: run.guardrails } : {}),
    ...(run.principal !== undefined ? { principal: run.principal } : {}),
    ...(run.memory ? { memory: run.memory } : {}),
    ...(run.depth !== undefined ? { depth: run.depth } : {}),
  };
  const { target, id } = run.node;
  const onEvent = run.onEvent;
  const multi = isMultiAgent(target);
  if (!onEvent) {
    return multi
      ? target.invoke(run.input ?? '', options)
      : target.invoke(run.input, {
          ...options,
          idempotencyScope: run.idempotencyScope,
        });
  }
  const gen = multi
    ? target.stream(run.input ?? '', options)
    : target.stream(run.input, {
        ...options,
        idempotencyScope: run.idempotencyScope,
      });
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
    onEvent(nodeStreamEvent(id, step.value));
  }
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

function timeoutText(nodeId: string, ms: number | undefined): string {
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
