export { BUDGET_LIMITS, emptySpend } from './budget-types.js';
export type {
  Budget,
  BudgetExceeded,
  BudgetLimit,
  BudgetSpend,
  BudgetWarning,
  ModelPrice,
  PriceTable,
  UsageKind,
  UsageTree,
} from './budget-types.js';
export { RunBudget } from './run-budget.js';
export { BudgetScope } from './budget-scope.js';
export type { Taken } from './budget-scope.js';
export { openBudgetScope, toolBudgetScope } from './open-scope.js';
export type { BudgetOption, OpenScope } from './open-scope.js';
export { BudgetWarningEvent } from './budget-warning-event.js';
export { MultiAgentBudgetWarningEvent } from './multi-agent-budget-warning-event.js';
export { costOf, describeExceeded } from './ledger.js';
export { OrchestratorBudget, budgetStopOf } from './orchestrator-budget.js';
