import {
  GuardrailTripped,
  TimeoutError,
  emptyUsage,
  isMultiAgent,
  nodeStreamEvent,
  type AgentResult,
  type BudgetScope,
  type InvocationGuardrails,
  type InvocationState,
  type MemoryTarget,
  type MultiAgentEventData,
  type MultiAgentResult,
  type NodeResult,
  type Principal,
  type Prompt,
} from '@skein/core';
import type { GraphNode } from './graph-types.js';
import { describeOutcome, timeoutText, trippedResult } from './node-outcome.js';

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
    const { executionCount } = run;
    const executionTimeMs = performance.now() - started;
    return {
      nodeId: node.id,
      executionCount,
      status: 'failed',
      text: '',
      error: message,
      usage: emptyUsage(),
      executionTimeMs,
    };
  } finally {
    limit?.clear();
  }
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
