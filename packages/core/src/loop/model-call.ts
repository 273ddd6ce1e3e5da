import type { BudgetExceeded } from '../budget/budget-types.js';
import type { ModelCallOutcome, RetryGate } from '../budget/loop-budget.js';
import { ContextWindowOverflowError, decisiveError } from '../errors/model-errors.js';
import type { HandoffContext, Handoff } from '../agent/handoff.js';
import { AfterModelCallEvent, BeforeModelCallEvent } from '../hooks/events.js';
import type { ModelRequest, ModelStreamEvent, ToolSpec } from '../model/model.js';
import type { AgentTool } from '../tools/agent-tool.js';
import type { Invocation, LoopHost } from './loop-host.js';
import { isStreamClosed } from '../events/lockstep-stream.js';
import { isDelegating } from '../model/delegating-model.js';
import { AttemptLog } from './attempt-log.js';
import { guardAnswer, outputWindow, streamGuarded } from '../guardrails/output-guard.js';
import { guardCalls } from '../guardrails/tool-guard.js';
import { requestMessages } from '../guardrails/request-messages.js';
import { checkCachePrefix } from './cache-prefix.js';
import { sleep } from './retry-strategy.js';
import { StreamAccumulator, type ModelTurn } from './stream-accumulator.js';

/** The tools the model was offered for one call: specs, plus the handoffs and extras by name. */
export interface OfferedTools {
  specs: readonly ToolSpec[];
  handoffs: Map<string, Handoff> | undefined;
  extras: Map<string, AgentTool> | undefined;
}

/**
 * The tools offered to one model call: a promise only when handoffs or invocation tools are offered
 * (`isEnabled` may be async), so the usual cycle does not pay for an async call.
 */
export function offeredTools(host: LoopHost, inv: Invocation): OfferedTools | Promise<OfferedTools> {
  const base = host.tools.specs();
  if (inv.handoffs.length === 0 && !inv.extra) return { specs: base, handoffs: undefined, extras: undefined };
  return offeredWithExtras(host, inv, base);
}

/** Evaluates `isEnabled` of each handoff (may be async) and builds the tool specs of this call. */
async function offeredWithExtras(host: LoopHost, inv: Invocation, base: readonly ToolSpec[]): Promise<OfferedTools> {
  const specs = [...base];
  let handoffs: Map<string, Handoff> | undefined;
  if (inv.handoffs.length > 0) {
    const ctx: HandoffContext = { agent: host.agent, invocationState: inv.invocationState };
    handoffs = new Map();
    for (const h of inv.handoffs) {
      if (!(await h.isEnabled(ctx))) continue;
      handoffs.set(h.toolName, h);
      specs.push({ name: h.toolName, description: h.toolDescription, inputSchema: { json: h.inputJsonSchema } });
    }
  }
  let extras: Map<string, AgentTool> | undefined;
  if (inv.extra) {
    extras = new Map();
    for (const t of inv.extra.tools) {
      extras.set(t.name, t);
      specs.push(t.spec);
    }
  }
  return { specs, handoffs, extras };
}

/**
 * Calls the model once, with retries: throttling and transient faults per the retry strategy,
 * context overflow through the conversation manager, and `AfterModelCallEvent.retry`. Returns
 * `undefined` when cancelled, and the limit when `retryGate` (a run-tree budget) refuses a retry.
 */
export async function callModel(
  host: LoopHost,
  inv: Invocation,
  offered: OfferedTools,
  retryGate?: RetryGate,
): Promise<ModelCallOutcome> {
  const { hooks, agent } = host;
  let attempt = 0;
  for (;;) {
    attempt++;
    if (inv.aborted) return undefined;
    const system = hooks.has(BeforeModelCallEvent) ? await hookedSystemPrompt(host, inv) : host.systemPrompt;
    if (host.model.cache === 'auto') await checkCachePrefix(host, inv, system);
    inv.metrics.modelCallCount++;
    const answer = new StreamAccumulator();
    // Only a model that delegates (`fallback`, `route`) reports attempts: no log for the others.
    const log = isDelegating(host.model) ? new AttemptLog(inv.budget) : undefined;
    let turn: ModelTurn | undefined;
    let error: unknown;
    const window = inv.guards && outputWindow(host, inv);
    try {
      const events = host.model.stream(modelRequest(host, inv, offered, log, system));
      if (window) await streamGuarded(inv, events, answer, log, window);
      else if (inv.unobserved) for await (const event of events) answer.add(event);
      else await streamWatched(inv, events, answer, log);
      turn = window?.stop ? undefined : answer.finish(inv.metrics);
    } catch (e) {
      if (isStreamClosed(e)) throw e; // the reader stopped: unwind, as a generator's return() would
      error = e;
    }
    if (log) {
      if (log.pending.length > 0) await log.flush(inv);
      const extra = log.extraRequests;
      if (extra > 0) {
        inv.metrics.modelCallCount += extra;
        attempt += extra; // the retry strategy counts every request, to whichever model of a chain
      }
    }
    if (inv.guards && (turn || window?.stop || inv.guards.gate)) {
      const guarded = guardAnswer(host, inv, turn, window);
      if ((guarded instanceof Promise ? await guarded : guarded) === 'retry') {
        const over = retryGate?.(0);
        if (over) return over;
        continue;
      }
    }
    // Tool guardrails check the calls before anyone sees the answer (hooks, traces, the history): a
    // rewritten input is what AfterModelCallEvent carries and what is stored.
    const calls = turn && inv.guards && guardCalls(host, inv, turn, offered);
    if (calls) await calls;
    if (turn) answered(inv, turn, (log?.answeredBy ?? host.model).modelId);
    if (hooks.has(AfterModelCallEvent) && (await askedToRetry(host, inv, turn, error))) continue;
    if (turn) return turn;
    const next = await afterFailure(host, inv, error, attempt, answer.streamed, retryGate);
    if (next === RETRY) continue;
    if (next === REDUCED) {
      attempt = 0;
      continue;
    }
    return next;
  }
}

/**
 * The request of one model call: the history, the system prompt, the tools offered, and the
 * invocation's signal. Until something made the signal, the request makes it when the model reads it
 * (an own enumerable accessor that behaves as the plain property: `{ ...request }` passes it on, and
 * assigning it replaces it).
 */
function modelRequest(
  host: LoopHost,
  inv: Invocation,
  offered: OfferedTools,
  observer: AttemptLog | undefined,
  system: string | undefined,
): ModelRequest {
  const messages = inv.guards ? requestMessages(host.messages(), inv.guards) : host.messages();
  const request: ModelRequest = inv.signalMade
    ? { messages, signal: inv.signal }
    : {
        messages,
        get signal(): AbortSignal {
          return inv.signal;
        },
        set signal(value: AbortSignal | undefined) {
          Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true });
        },
      };
  if (system !== undefined) request.systemPrompt = system;
  if (offered.specs.length > 0) request.toolSpecs = offered.specs;
  if (inv.extra?.toolChoice) request.toolChoice = inv.extra.toolChoice;
  if (observer) {
    request.agentName = host.agent.name;
    request.observer = observer;
  }
  return request;
}

/** Fires BeforeModelCallEvent and returns the system prompt the hooks left for this call. */
async function hookedSystemPrompt(host: LoopHost, inv: Invocation): Promise<string | undefined> {
  const event = new BeforeModelCallEvent(host.agent, inv.invocationState, {
    systemPrompt: host.systemPrompt,
    messages: inv.guards ? requestMessages(host.messages(), inv.guards) : host.messages(),
    memory: inv.memory,
    warn: (code, message) => inv.emit({ type: 'warning', code, message }),
  });
  return (await host.hooks.invoke(event)).systemPrompt;
}

/** Reads the model's stream into `answer`, handing each model event and each delta to the watchers. */
async function streamWatched(
  inv: Invocation,
  events: AsyncIterable<ModelStreamEvent>,
  answer: StreamAccumulator,
  log: AttemptLog | undefined,
): Promise<void> {
  for await (const event of events) {
    if (log && log.pending.length > 0) await log.flush(inv);
    const raw = inv.emit({ type: 'modelStreamEvent', event });
    if (raw) await raw;
    const delta = answer.add(event);
    const shown = delta && inv.emit(delta);
    if (shown) await shown;
  }
}

/** Records which model answered a turn (behind `fallback` or `route`, the one that did). */
function answered(inv: Invocation, turn: ModelTurn, modelId: string): void {
  turn.answeredBy = modelId;
  const models = inv.metrics.models;
  models[modelId] = (models[modelId] ?? 0) + 1;
}

/** What follows an attempt that failed: try again (after the retry wait), again with a reduced context, or stop. */
const RETRY = Symbol('retry');
const REDUCED = Symbol('reduced');

/**
 * After a failed attempt: cancelled (`undefined`), a retry the strategy allows (after its wait; a
 * budget may refuse it), a retry on a context the conversation manager reduced, or the error thrown.
 */
async function afterFailure(
  host: LoopHost,
  inv: Invocation,
  error: unknown,
  attempt: number,
  streamed: boolean,
  retryGate: RetryGate | undefined,
): Promise<typeof RETRY | typeof REDUCED | BudgetExceeded | undefined> {
  if (inv.aborted) return undefined;
  const delay = host.retryStrategy?.nextDelay(error, attempt);
  if (delay !== undefined) {
    const over = retryGate?.(delay);
    if (over) return over;
    return (await waitToRetry(inv, attempt, delay, error, streamed)) ? RETRY : undefined;
  }
  const decisive = decisiveError(error);
  if (ContextWindowOverflowError.is(decisive) && (await host.conversationManager.reduceContext(host.agent, decisive)))
    return REDUCED;
  throw error;
}

/** Fires AfterModelCallEvent; true when a hook asked for the call to be made again. */
async function askedToRetry(
  host: LoopHost,
  inv: Invocation,
  turn: ModelTurn | undefined,
  error: unknown,
): Promise<boolean> {
  const fields = turn
    ? { invocationState: inv.invocationState, stopResponse: { message: turn.message, stopReason: turn.stopReason } }
    : { invocationState: inv.invocationState, error };
  const after = await host.hooks.invoke(new AfterModelCallEvent(host.agent, fields));
  return after.retry;
}

/**
 * Tells the watchers that a failed attempt is tried again (a partial answer already streamed is
 * discarded: the history never sees it) and waits `delay`; false when cancelled meanwhile.
 */
async function waitToRetry(
  inv: Invocation,
  attempt: number,
  delayMs: number,
  error: unknown,
  discardedPartialAnswer: boolean,
): Promise<boolean> {
  await inv.emit({ type: 'modelRetry', attempt, delayMs, error, discardedPartialAnswer });
  try {
    await sleep(delayMs, inv.signal);
    return true;
  } catch {
    return false;
  }
}
