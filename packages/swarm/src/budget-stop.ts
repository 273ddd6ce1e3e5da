import { describeExceeded, type NewTransition, type OrchestratorBudget } from '@skein/core';

/** The transition that records a budget stop: the run is not finished and resumes at `nodeId`. */
export function budgetTransition(nodeId: string, budget: OrchestratorBudget): NewTransition {
  const stop = budget.exceeded;
  return {
    from: nodeId,
    to: null,
    kind: 'budget',
    reason: stop ? `stopped: ${describeExceeded(stop)}` : 'stopped by the budget',
  };
}
