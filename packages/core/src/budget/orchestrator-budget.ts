import type { AgentResult } from '../agent/agent-result.js';
import type { HookRegistry } from '../hooks/hook-registry.js';
import type { MultiAgentBase, MultiAgentResult, MultiAgentEventData } from '../multiagent/multi-agent.js';
import { isAgentResult } from '../multiagent/runnable.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { BudgetScope } from './budget-scope.js';
import type { BudgetExceeded, BudgetSpend, UsageTree } from './budget-types.js';
import { MultiAgentBudgetWarningEvent } from './multi-agent-budget-warning-event.js';
import { openBudgetScope, type BudgetOption, type OpenScope } from './open-scope.js';

/**
 * The budget of one orchestrator run (Graph, Swarm): opens its scope, counts node executions, gives
 * each node its scope, and reports the tree. Exists only when the run has a budget.
 */
export class OrchestratorBudget {
  readonly #opened: OpenScope;
  readonly #orchestrator: MultiAgentBase;
  /** The limit that stopped the run, once one did (the first wins). */
  exceeded: BudgetExceeded | undefined;

  private constructor(opened: OpenScope, orchestrator: MultiAgentBase) {
    this.#opened = opened;
    this.#orchestrator = orchestrator;
  }

  /**
   * The run's budget: from `option`, else the enclosing run tree's (through `invocationState`), else
   * `undefined`. `owned`: the orchestrator made `invocationState` (the caller gave none). A run resumed from a session with a budget made from limits first adds what the
   * stored run had spent (`stored`), so the limits cover the whole run.
   */
  static open(
    option: BudgetOption | undefined,
    invocationState: InvocationState,
    owned: boolean,
    orchestrator: MultiAgentBase,
    kind: 'graph' | 'swarm',
    stored: Partial<BudgetSpend> | undefined,
  ): OrchestratorBudget | undefined {
    const opened = openBudgetScope(option, invocationState, orchestrator.id, kind, owned);
    if (!opened) return undefined;
    if (opened.fresh && stored) opened.scope.budget.restore(stored);
    return new OrchestratorBudget(opened, orchestrator);
  }

  /** The run's scope. */
  get scope(): BudgetScope {
    return this.#opened.scope;
  }

  /**
   * Before a node starts: counts one node execution and returns the node's scope (pass it as the
   * node's `budget`), or `undefined` when a limit stops the run (then `exceeded` says which).
   * Warnings go to `emit` as `budgetWarning` events and to `MultiAgentBudgetWarningEvent` hooks.
   * `continues`: the node goes on where a stop left it; its execution was counted when it started.
   */
  async startNode(
    nodeId: string,
    hooks: HookRegistry,
    emit: ((event: MultiAgentEventData) => void) | undefined,
    continues = false,
  ): Promise<BudgetScope | undefined> {
    if (this.exceeded) return undefined;
    if (continues) return this.scope.child(nodeId, 'node');
    const taken = this.scope.takeNodeExecution();
    for (const warning of taken.warnings) {
      if (hooks.has(MultiAgentBudgetWarningEvent))
        await hooks.invoke(new MultiAgentBudgetWarningEvent(this.#orchestrator, warning));
      emit?.({ type: 'budgetWarning', nodeId, warning });
    }
    if (taken.exceeded) {
      this.exceeded = taken.exceeded;
      return undefined;
    }
    return this.scope.child(nodeId, 'node');
  }

  /** Notes a node that a limit stopped (its agent or nested run ended `budget_exceeded`); returns the limit. */
  nodeStopped(outcome: AgentResult | MultiAgentResult | undefined): BudgetExceeded | undefined {
    const stop = budgetStopOf(outcome);
    if (stop) this.exceeded ??= stop;
    return stop;
  }

  /** What the whole budget has spent (to store with the run, so a resume counts it). */
  spent(): BudgetSpend {
    return this.scope.budget.spent;
  }

  /** The result fields: the run's usage tree and the limit that stopped it. */
  report(): { usage: UsageTree; budgetExceeded?: BudgetExceeded } {
    return {
      usage: this.scope.tree(),
      ...(this.exceeded ? { budgetExceeded: this.exceeded } : {}),
    };
  }

  /** Ends the run's registration (call when the run ends). */
  close(): void {
    this.#opened.close();
  }
}

/** The limit that stopped an agent (`stopReason: 'budget_exceeded'`) or a nested run (`status: 'budgetExceeded'`), else `undefined`. */
export function budgetStopOf(outcome: AgentResult | MultiAgentResult | undefined): BudgetExceeded | undefined {
  if (!outcome) return undefined;
  if (isAgentResult(outcome))
    return outcome.stopReason === 'budget_exceeded'
      ? (outcome.budgetExceeded ?? { limit: 'totalTokens', max: 0, spent: 0 })
      : undefined;
  return outcome.status === 'budgetExceeded'
    ? (outcome.budgetExceeded ?? { limit: 'nodeExecutions', max: 0, spent: 0 })
    : undefined;
}
