import { MultiAgentHookEvent } from '../hooks/multi-agent-events.js';
import type { MultiAgentBase } from '../multiagent/multi-agent.js';
import type { BudgetWarning } from './budget-types.js';

/** A budget limit crossed its warning threshold when this orchestrator started a node. */
export class MultiAgentBudgetWarningEvent extends MultiAgentHookEvent {
  readonly warning: BudgetWarning;
  constructor(orchestrator: MultiAgentBase, warning: BudgetWarning) {
    super(orchestrator);
    this.warning = warning;
  }
}
