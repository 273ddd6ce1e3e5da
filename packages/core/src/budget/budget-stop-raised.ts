import type { NestedAgentState } from '../interrupt/interrupt.js';
import type { BudgetExceeded } from './budget-types.js';

/**
 * Thrown inside skein by a tool whose nested agent (an agent used as a tool) stopped at the run's
 * budget. The loop keeps the tool use without a result in the agent's pending turn, with where the
 * nested agent stood, and stops the invocation with `budget_exceeded`; a resume with a larger budget
 * continues the nested agent instead of starting it again. Not an error a user catches.
 */
export class BudgetStopRaised extends Error {
  readonly exceeded: BudgetExceeded;
  readonly nested: NestedAgentState | undefined;
  constructor(exceeded: BudgetExceeded, nested?: NestedAgentState) {
    super(`Stopped by the budget (${exceeded.limit}); skein keeps the tool use for a resume (do not catch this).`);
    this.exceeded = exceeded;
    this.nested = nested;
  }
}
