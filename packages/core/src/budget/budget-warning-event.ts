import type { AgentHandle } from '../agent/agent-handle.js';
import { AgentHookEvent } from '../hooks/events.js';
import type { BudgetWarning } from './budget-types.js';

/** A budget limit crossed its warning threshold (`warnAt`, default 80%) during this agent's invocation; raised once per limit per budget. */
export class BudgetWarningEvent extends AgentHookEvent {
  readonly warning: BudgetWarning;
  constructor(agent: AgentHandle, warning: BudgetWarning) {
    super(agent);
    this.warning = warning;
  }
}
