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
  let resume = inv.resume;
  for (;;) {
    let message: Message;
    let outcome: ToolsOutcome;
    if (resume) {
      // A turn paused for answers: its message rejoins the history, and only the waiting uses run.
      const { turn } = resume;
      resume = undefined;
      host.setPending(undefined);
      message = last = turn.message;
      const added = await host.appendMessage(turn.message);
      if (!inv.unobserved) yield added;
      const offered = await offeredTools(host, inv);
      const modelTurn = { message: turn.message, stopReason: 'tool_use' as const, invalidInputs: undefined };
      outcome = yield* executeTools(host, inv, modelTurn, toolUsesOf(turn.message), offered, turn.results);
    } else {
      if (inv.signal.aborted) return { stopReason: 'cancelled', message: last, handoff: undefined };
      const offered = await offeredTools(host, inv);
      const turn = inv.budget
        ? yield* inv.budget.modelCall(host, inv, (gate) => callModel(host, inv, offered, gate))
        : yield* callModel(host, inv, offered);
      if (inv.budget) yield* inv.budget.flush(host);
      if (!turn) return { stopReason: 'cancelled', message: last, handoff: undefined };
      if ('limit' in turn)
        return { stopReason: 'budget_exceeded', message: last, handoff: undefined, budgetExceeded: turn };
      inv.metrics.cycleCount++;
      message = last = turn.message;
      const added = await host.appendMessage(turn.message);
      if (!inv.unobserved) yield added;
      const uses = toolUsesOf(turn.message);
      if (uses.length === 0) {
        const stopReason = turn.stopReason === 'tool_use' ? 'end_turn' : turn.stopReason;
        return { stopReason, message: turn.message, handoff: undefined };
      }
      outcome = yield* executeTools(host, inv, turn, uses, offered);
    }
    // After the tools (written out here rather than in a generator of its own, which every cycle would pay for).
    const { interrupts, stopped } = outcome;
    if (interrupts.length > 0 || stopped) {
      // Uses wait for a person or for a larger budget: the turn leaves the history (no toolUse without
      // its toolResult) and is kept as the agent's pending turn, with the results of the uses that ran.
      const nested = outcome.nested;
      host.setPending({ message, results: outcome.results, interrupts, ...(nested ? { nested } : {}) });
      if (stopped && interrupts.length === 0) {
        if (inv.budget) yield* inv.budget.flush(host);
        return { stopReason: 'budget_exceeded', message, handoff: undefined, budgetExceeded: stopped };
      }
      yield { type: 'interrupt', interrupts };
      return { stopReason: 'interrupt', message, handoff: undefined, interrupts };
    }
    const added = await host.appendMessage({
      role: 'user',
      content: (outcome.results as ToolResult[]).map((toolResult) => ({ toolResult })),
    });
    if (!inv.unobserved) yield added;
    if (outcome.handoff) return { stopReason: 'handoff', message, handoff: outcome.handoff };
    if (inv.signal.aborted) return { stopReason: 'cancelled', message, handoff: undefined };
    if (inv.budget) {
      yield* inv.budget.flush(host);
      if (inv.budget.refused)
        return { stopReason: 'budget_exceeded', message, handoff: undefined, budgetExceeded: inv.budget.refused };
    }
    if (inv.extra?.shouldStop()) return { stopReason: 'end_turn', message, handoff: undefined };
  }
}
