import type { AgentStreamEvent } from '../agent/agent-events.js';
import type { StopReason } from '../model/model.js';
import type { HandoffRequest } from '../handoffs/handoff.js';
import type { Interrupt } from '../interrupt/interrupt.js';
import type { BudgetExceeded } from '../budget/budget-types.js';
import { toolUsesOf, type Message, type ToolResult } from '../types/messages.js';
import type { Invocation, LoopHost } from './loop-host.js';
import { callModel, offeredTools } from './model-call.js';
import { executeTools, type ToolsOutcome } from './tool-execution.js';

/** How the loop ended. */
export interface LoopOutcome {
  stopReason: StopReason;
  message: Message;
  handoff: HandoffRequest | undefined;
  /** What the run waits for (`stopReason: 'interrupt'`). */
  interrupts?: Interrupt[];
  /** The limit that stopped the run (`stopReason: 'budget_exceeded'`). */
  budgetExceeded?: BudgetExceeded;
}

/**
 * The agent loop. One cycle: call the model with the system prompt, the history and the tool specs;
 * append its message; if it asked for tools, run them and append one user message with all results;
 * repeat. Stops on end of turn, a handoff, cancellation or an unrecoverable error. A cancelled model
 * call appends nothing; cancelled tools get error results, so no toolUse is ever left without its result.
 */
export async function* runEventLoop(host: LoopHost, inv: Invocation): AsyncGenerator<AgentStreamEvent, LoopOutcome> {
  let last: Message = { role: 'assistant', content: [] };
  if (inv.resume) {
    // A turn paused for answers: its message rejoins the history, and only the waiting uses run.
    const { turn } = inv.resume;
    host.setPending(undefined);
    last = turn.message;
    yield await host.appendMessage(turn.message);
    const offered = await offeredTools(host, inv);
    const modelTurn = { message: turn.message, stopReason: 'tool_use' as const, invalidInputs: undefined };
    const outcome = yield* executeTools(host, inv, modelTurn, toolUsesOf(turn.message), offered, turn.results);
    const end = yield* afterTools(host, inv, turn.message, outcome);
    if (end) return end;
  }
  for (;;) {
    if (inv.signal.aborted) return { stopReason: 'cancelled', message: last, handoff: undefined };
    const offered = await offeredTools(host, inv);
    const turn = inv.budget ? yield* inv.budget.modelCall(host, inv, (gate) => callModel(host, inv, offered, gate)) : yield* callModel(host, inv, offered);
    if (inv.budget) yield* inv.budget.flush(host);
    if (!turn) return { stopReason: 'cancelled', message: last, handoff: undefined };
    if ('limit' in turn) return { stopReason: 'budget_exceeded', message: last, handoff: undefined, budgetExceeded: turn };
    inv.metrics.cycleCount++;
    last = turn.message;
    yield await host.appendMessage(turn.message);
    const uses = toolUsesOf(turn.message);
    if (uses.length === 0) {
      const stopReason = turn.stopReason === 'tool_use' ? 'end_turn' : turn.stopReason;
      return { stopReason, message: turn.message, handoff: undefined };
    }
    const outcome = yield* executeTools(host, inv, turn, uses, offered);
    const end = yield* afterTools(host, inv, turn.message, outcome);
    if (end) return end;
  }
}

/**
 * Appends the results of a turn's tools and says whether the loop ends. When some tool uses wait
 * for a person, the turn leaves the history (no toolUse without its toolResult) and is kept as the
 * agent's pending turn instead.
 */
async function* afterTools(host: LoopHost, inv: Invocation, message: Message, outcome: ToolsOutcome): AsyncGenerator<AgentStreamEvent, LoopOutcome | undefined> {
  const { interrupts } = outcome;
  if (interrupts.length > 0) {
    host.setPending({ message, results: outcome.results, interrupts });
    yield { type: 'interrupt', interrupts };
    return { stopReason: 'interrupt', message, handoff: undefined, interrupts };
  }
  yield await host.appendMessage({ role: 'user', content: (outcome.results as ToolResult[]).map((toolResult) => ({ toolResult })) });
  if (outcome.handoff) return { stopReason: 'handoff', message, handoff: outcome.handoff };
  if (inv.signal.aborted) return { stopReason: 'cancelled', message, handoff: undefined };
  if (inv.budget) {
    yield* inv.budget.flush(host);
    if (inv.budget.refused) return { stopReason: 'budget_exceeded', message, handoff: undefined, budgetExceeded: inv.budget.refused };
  }
  if (inv.extra?.shouldStop()) return { stopReason: 'end_turn', message, handoff: undefined };
  return undefined;
}
