import type { BudgetOption } from '../budget/open-scope.js';
import type { Handoff } from '../handoffs/handoff.js';
import type { Message } from '../types/messages.js';
import type { InvocationState } from '../tools/agent-tool.js';
import type { Agent } from './agent.js';
import type { MemoryTarget } from '../memory/memory-target.js';

/** Options of one invocation. */
export interface InvokeOptions {
  /** Aborting it cancels the invocation, which then ends with `stopReason: 'cancelled'`. */
  signal?: AbortSignal;
  /** Values for tools and hooks (never sent to the model). */
  invocationState?: InvocationState;
  /** Handoffs offered in this invocation instead of the agent's own (orchestrators use this). */
  handoffs?: readonly (Agent | Handoff)[];
  /**
   * Limits over this invocation's whole tree (every agent it uses as a tool draws from them), or a
   * shared `RunBudget`. Reached: the invocation stops before its next model call with
   * `stopReason: 'budget_exceeded'`. Default: the budget of the run tree this invocation belongs to.
   */
  budget?: BudgetOption | undefined;
  /**
   * Who calls the tools of this invocation, the first part of their idempotency keys
   * (`context.idempotencyKey`). Default: the session id and the agent id. Orchestrators give each node
   * execution its own; an agent used as a tool gets the key of the call that runs it.
   */
  idempotencyScope?: string;
  /**
   * Called with each message this invocation appends to the agent's history, in order: the prompt's
   * messages, the model's answers, the tool results (what `messageAdded` events carry), without
   * making any event. For orchestrators that need a turn's messages from `invoke()`.
   */
  onMessageAdded?: ((message: Message) => void) | undefined;
  /**
   * Whose long-term memory this invocation reads and writes, for an agent with a `memory`: the
   * resource (a customer) and the thread (this conversation). Without it, the memory does nothing.
   */
  memory?: MemoryTarget | undefined;
}
