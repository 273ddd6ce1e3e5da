import {
  TimeoutError,
  type BudgetScope,
  type Agent,
  type AgentResult,
  type AgentStreamEvent,
  type Handoff,
  type InvocationState,
  type Message,
  type Prompt,
} from '@skein/core';

/** How one node execution ended. */
export interface NodeOutcome {
  result: AgentResult | undefined;
  /** The messages the agent added in this execution (its turn). */
  newItems: Message[];
  /** Why the node failed, when it did. */
  error: string | undefined;
  /** Set when the caller's signal stopped the node. */
  interrupted: boolean;
  elapsedMs: number;
}

/** What one node execution needs. */
export interface NodeRun {
  nodeId: string;
  agent: Agent;
  handoffs: readonly Handoff[];
  invocationState: InvocationState;
  /** The caller's signal (cancels the run). */
  signal: AbortSignal | undefined;
  nodeTimeoutMs: number;
  /** What is left of the run's time budget, in ms. */
  remainingMs: number;
  executionTimeoutMs: number;
  /** What to invoke the agent with (answers to its interrupts); default: continue from its history. */
  prompt?: Prompt;
  /** The node's place in the run's budget (`undefined`: no budget). */
  budget?: BudgetScope | undefined;
  /** The first part of the idempotency keys of the member's tool calls (see `InvokeOptions`). */
  idempotencyScope: string;
  /**
   * True when nobody reads the agent's stream events (`invoke` without listeners): they are not
   * yielded up through the swarm's generators, each of which would cost a resumption per event.
   */
  quiet?: boolean;
}

/**
 * Runs one member agent from its current history under the node and run time budgets, yielding its
 * stream events. Failures and timeouts come back in the outcome; it never throws for them.
 */
export async function* runNode(run: NodeRun): AsyncGenerator<AgentStreamEvent, NodeOutcome> {
  const controller = new AbortController();
  const runLimited = run.remainingMs < run.nodeTimeoutMs;
  const limitMs = Math.max(0, Math.min(run.nodeTimeoutMs, run.remainingMs));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    const what = runLimited
      ? `the swarm's executionTimeout of ${run.executionTimeoutMs} ms elapsed while ${run.nodeId} was running`
      : `node ${run.nodeId} exceeded the nodeTimeout of ${run.nodeTimeoutMs} ms`;
    controller.abort(new TimeoutError(what, limitMs));
  }, limitMs);
  const onAbort = (): void => controller.abort(run.signal?.reason);
  if (run.signal?.aborted) onAbort();
  else run.signal?.addEventListener('abort', onAbort, { once: true });
  const started = performance.now();
  const newItems: Message[] = [];
  let result: AgentResult | undefined;
  let error: string | undefined;
  try {
    const stream = run.agent.stream(run.prompt, {
      handoffs: run.handoffs,
      signal: controller.signal,
      invocationState: run.invocationState,
      budget: run.budget,
      idempotencyScope: run.idempotencyScope,
    });
    for (let step = await stream.next(); ; step = await stream.next()) {
      if (step.done) {
        result = step.value;
        break;
      }
      if (step.value.type === 'messageAdded') newItems.push(step.value.message);
      if (!run.quiet) yield step.value;
    }
  } catch (e) {
    error = `${run.nodeId} failed: ${e instanceof Error ? e.message : String(e)}`;
  } finally {
    clearTimeout(timer);
    run.signal?.removeEventListener('abort', onAbort);
  }
  const interrupted = !timedOut && run.signal?.aborted === true;
  if (timedOut) {
    error = (controller.signal.reason as Error).message;
    error = error.charAt(0).toUpperCase() + error.slice(1);
  } else if (!error && result?.stopReason === 'cancelled' && !interrupted) {
    error = `${run.nodeId} was cancelled.`;
  }
  return { result, newItems, error, interrupted, elapsedMs: performance.now() - started };
}
