import type { StopReason } from '../model/model.js';
import { messageText, type Message } from '../types/messages.js';
import type { AgentMetrics } from '../metrics/agent-metrics.js';
import type { RequestState } from './agent-events.js';
import type { HandoffRequest } from './handoff.js';
import type { Interrupt } from '../interrupt/interrupt.js';
import type { BudgetExceeded, UsageTree } from '../budget/budget-types.js';

/** The outcome of one invocation. `String(result)` is the final text. */
export class AgentResult<T = unknown> {
  readonly stopReason: StopReason;
  /** The last assistant message. */
  readonly message: Message;
  readonly metrics: AgentMetrics;
  /** The request state, as callback handlers left it. */
  readonly state: RequestState;
  /** The validated value, for `structuredOutput()`. */
  readonly structuredOutput: T | undefined;
  /** A transfer the model asked for (`stopReason: 'handoff'`); the orchestrator performs it. */
  readonly handoff: HandoffRequest | undefined;
  /** What the invocation waits for (`stopReason: 'interrupt'`): answer each with an `interruptResponse`. */
  readonly interrupts: readonly Interrupt[];
  /** What this invocation's tree spent (tokens, cost, calls), when it ran under a budget. */
  readonly usage: UsageTree | undefined;
  /** The limit that stopped it (`stopReason: 'budget_exceeded'`). */
  readonly budgetExceeded: BudgetExceeded | undefined;

  constructor(fields: {
    stopReason: StopReason;
    message: Message;
    metrics: AgentMetrics;
    state: RequestState;
    structuredOutput?: T;
    handoff?: HandoffRequest;
    interrupts?: readonly Interrupt[];
    usage?: UsageTree;
    budgetExceeded?: BudgetExceeded;
  }) {
    this.stopReason = fields.stopReason;
    this.message = fields.message;
    this.metrics = fields.metrics;
    this.state = fields.state;
    this.structuredOutput = fields.structuredOutput;
    this.handoff = fields.handoff;
    this.interrupts = fields.interrupts ?? [];
    this.usage = fields.usage;
    this.budgetExceeded = fields.budgetExceeded;
  }

  /** The text of the final message. */
  toString(): string {
    return messageText(this.message);
  }
}
