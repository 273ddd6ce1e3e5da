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
  /** True when nobody reads the agent's stream events (`invoke` without listeners): they are not handed on. */
  quiet?: boolean;
}

/** Hands a member's event on (as `nodeStream`): a promise when the stream's reader must take it first. */
export type MemberEmit = (event: AgentStreamEvent) => Promise<void> | undefined;

/**
 * Runs one member agent from its current history under the node and run time budgets, handing its
 * stream events to `emit` (none when `quiet`). Failures and timeouts come back in the outcome; it never
 * throws for them.
 */
export async function runNode(run: NodeRun, emit: MemberEmit): Promise<NodeOutcome> {
  const limit = new NodeLimit(run);
  const started = performance.now();
  const newItems: Message[] = [];
  let result: AgentResult | undefined;
  let error: string | undefined;
  try {
    const stream = run.agent.stream(run.prompt, {
      handoffs: run.handoffs,
      signal: limit.signal,
      invocationState: run.invocationState,
      budget: run.budget,
      idempotencyScope: run.idempotencyScope,
    });
    for (;;) {
      let step: IteratorResult<AgentStreamEvent, AgentResult>;
      try {
        step = await stream.next();
      } catch (e) {
        error = `${run.nodeId} failed: ${e instanceof Error ? e.message : String(e)}`;
        break;
      }
      if (step.done) {
        result = step.value;
        break;
      }
      if (step.value.type === 'messageAdded') newItems.push(step.value.message);
      // Outside the try: a reader that stopped reading unwinds the swarm (no node failure).
      const shown = run.quiet ? undefined : emit(step.value);
      if (shown) await shown;
    }
  } finally {
    limit.clear();
  }
  return {
    result,
    newItems,
    error: limit.error(run, error, result),
    interrupted: limit.interrupted(run),
    elapsedMs: performance.now() - started,
  };
}

/** A node's own abort controller: fired by its time budget or by the caller's signal. */
class NodeLimit {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = (): void => this.#controller.abort(this.#signal?.reason);
  #timedOut = false;

  constructor(run: NodeRun) {
    const runLimited = run.remainingMs < run.nodeTimeoutMs;
    const limitMs = Math.max(0, Math.min(run.nodeTimeoutMs, run.remainingMs));
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      const what = runLimited
        ? `the swarm's executionTimeout of ${run.executionTimeoutMs} ms elapsed while ${run.nodeId} was running`
        : `node ${run.nodeId} exceeded the nodeTimeout of ${run.nodeTimeoutMs} ms`;
      this.#controller.abort(new TimeoutError(what, limitMs));
    }, limitMs);
    this.#signal = run.signal;
    if (run.signal?.aborted) this.#onAbort();
    else run.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  /** Set when the caller's signal stopped the node (not its time budget). */
  interrupted(run: NodeRun): boolean {
    return !this.#timedOut && run.signal?.aborted === true;
  }

  /** Why the node failed: its time budget, the error it threw, or a cancellation nobody asked for. */
  error(run: NodeRun, thrown: string | undefined, result: AgentResult | undefined): string | undefined {
    if (this.#timedOut) {
      const message = (this.#controller.signal.reason as Error).message;
      return message.charAt(0).toUpperCase() + message.slice(1);
    }
    if (!thrown && result?.stopReason === 'cancelled' && !this.interrupted(run)) return `${run.nodeId} was cancelled.`;
    return thrown;
  }
}
