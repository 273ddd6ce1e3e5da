import type { AgentStreamEvent } from '../agent/agent-events.js';
import type { BudgetExceeded } from '../budget/budget-types.js';
import { ContextWindowOverflowError } from '../errors/model-errors.js';
import type { HandoffContext, Handoff } from '../handoffs/handoff.js';
import { AfterModelCallEvent, BeforeModelCallEvent } from '../hooks/events.js';
import type { ModelRequest, ToolSpec } from '../model/model.js';
import type { AgentTool } from '../tools/agent-tool.js';
import type { Invocation, LoopHost } from './loop-host.js';
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

/** Asked before a failed attempt is retried after `delayMs`: the budget limit that stops the retry, if any. */
export type RetryGate = (delayMs: number) => BudgetExceeded | undefined;

/**
 * Calls the model once, with retries: throttling and transient faults per the retry strategy,
 * context overflow through the conversation manager, and `AfterModelCallEvent.retry`. Returns
 * `undefined` when cancelled, and the limit when `retryGate` (a run-tree budget) refuses a retry.
 */
export async function* callModel(
  host: LoopHost,
  inv: Invocation,
  offered: OfferedTools,
  retryGate?: RetryGate,
): AsyncGenerator<AgentStreamEvent, ModelTurn | BudgetExceeded | undefined> {
  const { hooks, agent } = host;
  let attempt = 0;
  for (;;) {
    attempt++;
    if (inv.signal.aborted) return undefined;
    if (hooks.has(BeforeModelCallEvent)) await hooks.invoke(new BeforeModelCallEvent(agent, inv.invocationState));
    const request: ModelRequest = { messages: host.messages(), signal: inv.signal };
    if (host.systemPrompt !== undefined) request.systemPrompt = host.systemPrompt;
    if (offered.specs.length > 0) request.toolSpecs = offered.specs;
    if (inv.extra?.toolChoice) request.toolChoice = inv.extra.toolChoice;
    inv.metrics.modelCallCount++;
    let turn: ModelTurn | undefined;
    let error: unknown;
    let streamed = false;
    try {
      const answer = new StreamAccumulator();
      for await (const event of host.model.stream(request)) {
        if (!streamed && 'contentBlockDelta' in event) streamed = true; // text, reasoning or tool input
        if (inv.unobserved) {
          answer.add(event);
          continue;
        }
        yield { type: 'modelStreamEvent', event };
        const delta = answer.add(event);
        if (delta) yield delta;
      }
      turn = answer.finish(inv.metrics);
    } catch (e) {
      error = e;
    }
    if (hooks.has(AfterModelCallEvent)) {
      const fields = turn
        ? { invocationState: inv.invocationState, stopResponse: { message: turn.message, stopReason: turn.stopReason } }
        : { invocationState: inv.invocationState, error };
      const after = await hooks.invoke(new AfterModelCallEvent(agent, fields));
      if (after.retry) continue;
    }
    if (turn) return turn;
    if (inv.signal.aborted) return undefined;
    const delay = host.retryStrategy?.nextDelay(error, attempt);
    if (delay !== undefined) {
      const over = retryGate?.(delay);
      if (over) return over;
      // A partial answer already streamed is discarded: consumers are told, the history never sees it.
      yield { type: 'modelRetry', attempt, delayMs: delay, error, discardedPartialAnswer: streamed };
      try {
        await sleep(delay, inv.signal);
      } catch {
        return undefined;
      }
      continue;
    }
    if (ContextWindowOverflowError.is(error) && (await host.conversationManager.reduceContext(agent, error))) {
      attempt = 0;
      continue;
    }
    throw error;
  }
}
