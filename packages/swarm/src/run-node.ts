import {
  GuardrailTripped,
  type BudgetScope,
  type Agent,
  type AgentResult,
  type AgentStreamEvent,
  type Handoff,
  type InvocationGuardrails,
  type InvocationState,
  type MemoryTarget,
  type InvokeOptions,
  type Message,
  type Principal,
  type Prompt,
} from '@skein/core';
import type { MemberClock } from './member-clock.js';

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
  /** The guardrail that blocked the turn (then `error` says so too). */
  tripped?: GuardrailTripped | undefined;
}

/** What one node execution needs. */
export interface NodeRun {
  nodeId: string;
  agent: Agent;
  handoffs: readonly Handoff[];
  invocationState: InvocationState;
  /** The invocation's time limits and the caller's signal. */
  clock: MemberClock;
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
  /** The guardrails the member runs with (the swarm's and an enclosing run's), and its path. */
  guardrails?: InvocationGuardrails | undefined;
  /** Who asked, for the member's guardrails. */
  principal?: Principal | undefined;
  /** Whose long-term memory the member reads (`undefined`: none). */
  memory?: MemoryTarget | undefined;
  /** How deep nested runs' events reach the stream (`MultiAgentInvokeOptions.depth`). */
  depth?: number | undefined;
}

/** Hands a member's event on (as `nodeStream`): a promise when the stream's reader must take it first. */
export type MemberEmit = (event: AgentStreamEvent) => Promise<void> | undefined;

/**
 * Runs one member agent from its current history under the node and run time budgets, handing its
 * stream events to `emit` (none when `quiet`). Failures and timeouts come back in the outcome; it never
 * throws for them.
 */
export async function runNode(run: NodeRun, emit: MemberEmit): Promise<NodeOutcome> {
  const { clock } = run;
  const limitMs = Math.max(0, Math.min(run.nodeTimeoutMs, run.remainingMs));
  const runLimited = run.remainingMs < run.nodeTimeoutMs;
  const { nodeId, nodeTimeoutMs, executionTimeoutMs } = run;
  clock.start({
    nodeId,
    limitMs,
    runLimited,
    nodeTimeoutMs,
    executionTimeoutMs,
  });
  const started = performance.now();
  const newItems: Message[] = [];
  const options: InvokeOptions = {
    handoffs: run.handoffs,
    signal: clock.signal,
    invocationState: run.invocationState,
    budget: run.budget,
    idempotencyScope: run.idempotencyScope,
    ...(run.guardrails ? { guardrails: run.guardrails } : {}),
    ...(run.principal !== undefined ? { principal: run.principal } : {}),
    ...(run.memory ? { memory: run.memory } : {}),
    ...(run.depth !== undefined ? { depth: run.depth } : {}),
  };
  try {
    if (!run.quiet) return await streamed(run, options, emit, newItems, started);
    // Nobody reads the member's events: `invoke` makes none; the turn's messages come from the callback.
    const result = await run.agent
      .invoke(run.prompt, {
        ...options,
        onMessageAdded: (m) => void newItems.push(m),
      })
      .catch((e: unknown) => (GuardrailTripped.is(e) ? e : failed(run, e)));
    if (GuardrailTripped.is(result)) return tripped(run, started, newItems, result);
    return typeof result === 'string'
      ? outcome(run, started, newItems, result, undefined)
      : outcome(run, started, newItems, undefined, result);
  } finally {
    clock.stop();
  }
}

/** Runs the member through `stream()`, handing each event to `emit`. */
async function streamed(
  run: NodeRun,
  options: InvokeOptions,
  emit: MemberEmit,
  newItems: Message[],
  started: number,
): Promise<NodeOutcome> {
  const stream = run.agent.stream(run.prompt, options);
  for (;;) {
    let step: IteratorResult<AgentStreamEvent, AgentResult>;
    try {
      step = await stream.next();
    } catch (e) {
      if (GuardrailTripped.is(e)) return tripped(run, started, newItems, e);
      return outcome(run, started, newItems, failed(run, e), undefined);
    }
    if (step.done) return outcome(run, started, newItems, undefined, step.value);
    if (step.value.type === 'messageAdded') newItems.push(step.value.message);
    // Outside the try: a reader that stopped reading unwinds the swarm (no node failure).
    const shown = emit(step.value);
    if (shown) await shown;
  }
}

const failed = (run: NodeRun, e: unknown): string =>
  `${run.nodeId} failed: ${e instanceof Error ? e.message : String(e)}`;

/** The outcome of a turn a guardrail blocked: failed, with the trip. */
function tripped(run: NodeRun, started: number, newItems: Message[], error: GuardrailTripped): NodeOutcome {
  return {
    ...outcome(run, started, newItems, error.message, undefined),
    tripped: error,
  };
}

/** The outcome of a turn that ended with `result` or failed with `error` (a timeout wins, see `failure`). */
function outcome(
  run: NodeRun,
  started: number,
  newItems: Message[],
  error: string | undefined,
  result: AgentResult | undefined,
): NodeOutcome {
  return {
    result,
    newItems,
    error: failure(run, error, result),
    interrupted: run.clock.interrupted,
    elapsedMs: performance.now() - started,
  };
}

/** Why the turn failed: its time limit, the error it threw, or a cancellation nobody asked for. */
function failure(run: NodeRun, thrown: string | undefined, result: AgentResult | undefined): string | undefined {
  const { clock } = run;
  if (clock.timedOut) {
    const message = (clock.signal.reason as Error).message;
    return message.charAt(0).toUpperCase() + message.slice(1);
  }
  if (!thrown && result?.stopReason === 'cancelled' && !clock.interrupted) return `${run.nodeId} was cancelled.`;
  return thrown;
}
