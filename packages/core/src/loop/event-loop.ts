import type { AgentStreamEvent } from '../agent/agent-events.js';
import type { StopReason } from '../model/model.js';
import type { HandoffRequest } from '../handoffs/handoff.js';
import { toolUsesOf, type Message } from '../types/messages.js';
import type { Invocation, LoopHost } from './loop-host.js';
import { callModel, offeredTools } from './model-call.js';
import { executeTools } from './tool-execution.js';

/** How the loop ended. */
export interface LoopOutcome {
  stopReason: StopReason;
  message: Message;
  handoff: HandoffRequest | undefined;
}

/**
 * The agent loop. One cycle: call the model with the system prompt, the history and the tool specs;
 * append its message; if it asked for tools, run them and append one user message with all results;
 * repeat. Stops on end of turn, a handoff, cancellation or an unrecoverable error. A cancelled model
 * call appends nothing; cancelled tools get error results, so no toolUse is ever left without its result.
 */
export async function* runEventLoop(host: LoopHost, inv: Invocation): AsyncGenerator<AgentStreamEvent, LoopOutcome> {
  let last: Message = { role: 'assistant', content: [] };
  for (;;) {
    if (inv.signal.aborted) return { stopReason: 'cancelled', message: last, handoff: undefined };
    const offered = await offeredTools(host, inv);
    const turn = yield* callModel(host, inv, offered);
    if (!turn) return { stopReason: 'cancelled', message: last, handoff: undefined };
    inv.metrics.cycleCount++;
    last = turn.message;
    yield await host.appendMessage(turn.message);
    const uses = toolUsesOf(turn.message);
    if (uses.length === 0) {
      const stopReason = turn.stopReason === 'tool_use' ? 'end_turn' : turn.stopReason;
      return { stopReason, message: turn.message, handoff: undefined };
    }
    const outcome = yield* executeTools(host, inv, turn, uses, offered);
    yield await host.appendMessage({ role: 'user', content: outcome.results.map((toolResult) => ({ toolResult })) });
    if (outcome.handoff) return { stopReason: 'handoff', message: turn.message, handoff: outcome.handoff };
    if (inv.signal.aborted) return { stopReason: 'cancelled', message: turn.message, handoff: undefined };
    if (inv.extra?.shouldStop()) return { stopReason: 'end_turn', message: turn.message, handoff: undefined };
  }
}
