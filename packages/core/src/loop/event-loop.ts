import type { StopReason } from '../model/model.js';
import type { HandoffRequest } from '../agent/handoff.js';
import type { Interrupt } from '../interrupt/interrupt.js';
import type { BudgetExceeded } from '../budget/budget-types.js';
import type { ResumeAnswers } from '../interrupt/pending-turn.js';
import { toolUsesOf, type Message, type ToolResult } from '../types/messages.js';
import type { Invocation, LoopHost } from './loop-host.js';
import { callModel, offeredTools } from './model-call.js';
import { executeTools, type ToolsOutcome } from './tool-execution.js';
import { emitTrip } from '../guardrails/tripwire.js';

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

/** A cycle whose tools ran: the assistant message that asked for them, and what they did. */
interface RanTools {
  message: Message;
  outcome: ToolsOutcome;
}

/**
 * The agent loop. One cycle: call the model with the system prompt, the history and the tool specs;
 * append its message; if it asked for tools, run them and append one user message with all results;
 * repeat. Stops on end of turn, a handoff, cancellation or an unrecoverable error. A cancelled model
 * call appends nothing; cancelled tools get error results, so no toolUse is ever left without its result.
 * Events go to `inv.emit` as they happen (none are made when nobody watches).
 */
export async function runEventLoop(host: LoopHost, inv: Invocation): Promise<LoopOutcome> {
  let last: Message = { role: 'assistant', content: [] };
  let resume = inv.resume;
  for (;;) {
    const cycle = resume ? await resumedCycle(host, inv, resume) : await modelCycle(host, inv, last);
    resume = undefined;
    if (!('outcome' in cycle)) return cycle;
    const { message, outcome } = cycle;
    last = message;
    if (outcome.interrupts.length > 0 || outcome.stopped) return suspend(host, inv, message, outcome);
    const results = (outcome.results as ToolResult[]).map((toolResult) => ({ toolResult }));
    const added = addMessage(host, inv, { role: 'user', content: results });
    if (added) await added;
    if (outcome.handoff) return { stopReason: 'handoff', message, handoff: outcome.handoff };
    if (inv.aborted) return { stopReason: 'cancelled', message, handoff: undefined };
    if (inv.budget) {
      await inv.budget.flush(host, inv);
      if (inv.budget.refused)
        return { stopReason: 'budget_exceeded', message, handoff: undefined, budgetExceeded: inv.budget.refused };
    }
    if (inv.extra?.shouldStop()) return { stopReason: 'end_turn', message, handoff: undefined };
  }
}

/** A turn paused for answers: its message rejoins the history, and only the waiting uses run. */
async function resumedCycle(host: LoopHost, inv: Invocation, resume: ResumeAnswers): Promise<RanTools> {
  const { turn } = resume;
  host.setPending(undefined);
  const added = addMessage(host, inv, turn.message);
  if (added) await added;
  const offered = await offeredTools(host, inv);
  const modelTurn = { message: turn.message, stopReason: 'tool_use' as const, invalidInputs: undefined };
  const uses = toolUsesOf(turn.message);
  return { message: turn.message, outcome: await executeTools(host, inv, modelTurn, uses, offered, turn.results) };
}

/** Calls the model and runs the tools it asked for; or how the loop ends when it asked for none (or could not be asked). */
async function modelCycle(host: LoopHost, inv: Invocation, last: Message): Promise<RanTools | LoopOutcome> {
  if (inv.aborted) return { stopReason: 'cancelled', message: last, handoff: undefined };
  const specs = offeredTools(host, inv);
  const offered = 'then' in specs ? await specs : specs;
  const turn = inv.budget
    ? await inv.budget.modelCall(host, inv, (gate) => callModel(host, inv, offered, gate))
    : await callModel(host, inv, offered);
  if (inv.budget) await inv.budget.flush(host, inv);
  const tripped = inv.guards?.tripped;
  if (tripped) throw (await emitTrip(inv.emit, inv.unobserved, tripped), tripped);
  if (!turn) return { stopReason: 'cancelled', message: last, handoff: undefined };
  if ('limit' in turn)
    return { stopReason: 'budget_exceeded', message: last, handoff: undefined, budgetExceeded: turn };
  inv.metrics.cycleCount++;
  const uses = toolUsesOf(turn.message);
  const added = addMessage(host, inv, turn.message);
  if (added) await added;
  if (uses.length === 0) {
    const stopReason = turn.stopReason === 'tool_use' ? 'end_turn' : turn.stopReason;
    return { stopReason, message: turn.message, handoff: undefined };
  }
  return { message: turn.message, outcome: await executeTools(host, inv, turn, uses, offered) };
}

/**
 * Uses wait for a person or for a larger budget: the turn leaves the history (no toolUse without its
 * toolResult) and is kept as the agent's pending turn, with the results of the uses that ran.
 */
async function suspend(host: LoopHost, inv: Invocation, message: Message, outcome: ToolsOutcome): Promise<LoopOutcome> {
  const { interrupts, stopped, nested } = outcome;
  host.setPending({ message, results: outcome.results, interrupts, ...(nested ? { nested } : {}) });
  if (stopped && interrupts.length === 0) {
    if (inv.budget) await inv.budget.flush(host, inv);
    return { stopReason: 'budget_exceeded', message, handoff: undefined, budgetExceeded: stopped };
  }
  await inv.emit({ type: 'interrupt', interrupts });
  return { stopReason: 'interrupt', message, handoff: undefined, interrupts };
}

/**
 * Appends `message` and hands its `messageAdded` event to the watchers (not made when nobody
 * watches). A promise only when a hook or a stream's reader has to run first: the caller awaits it
 * then, and only then (an await of anything else still costs a turn of the microtask queue).
 */
function addMessage(host: LoopHost, inv: Invocation, message: Message): Promise<void> | undefined {
  const hooked = host.appendMessage(message);
  inv.onMessageAdded?.(message);
  if (inv.unobserved) return hooked;
  if (hooked) return hooked.then(() => inv.emit({ type: 'messageAdded', message }));
  return inv.emit({ type: 'messageAdded', message });
}
