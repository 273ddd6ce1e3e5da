import { ConfigurationError } from '../errors/configuration-errors.js';
import { isDelegating } from '../model/delegating-model.js';
import type { Model, Usage } from '../model/model.js';
import {
  emptySpend,
  type BudgetExceeded,
  type BudgetSpend,
  type BudgetWarning,
  type UsageKind,
  type UsageTree,
} from './budget-types.js';
import { DEFAULT_RESERVE_TOKENS, MODEL_CALL_LIMITS, modelReservation, modelSpend, NODE_LIMITS } from './ledger.js';
import type { Reservation, RunBudget } from './run-budget.js';
import type { ModelPrice, PriceTable } from './budget-types.js';

/**
 * The price a call to `model` reserves at: its own, else for a model that delegates (`fallback`,
 * `route`) the dearest of its members' (what the call may cost); the answer is priced as the model
 * that gave it.
 */
function priceOf(prices: PriceTable | undefined, model: Model): ModelPrice | undefined {
  const own = prices?.[model.modelId];
  if (own || !prices || !isDelegating(model)) return own;
  let dearest: ModelPrice | undefined;
  for (const m of model.models) {
    const p = priceOf(prices, m);
    if (p && (!dearest || p.outputPerMTok > dearest.outputPerMTok)) dearest = p;
  }
  return dearest;
}

/** What taking one unit (a tool call, a node execution) gave: the limit that refused it, or the warnings it crossed. */
export interface Taken {
  exceeded: BudgetExceeded | undefined;
  warnings: BudgetWarning[];
}

/**
 * One place in a run tree (the run, an orchestrator, a node, an agent invocation) drawing from a
 * shared {@link RunBudget}. What is spent here is recorded here and rolls up to every ancestor once.
 * Orchestrators pass a node's scope as `budget` to the node's invoke; users pass limits or a RunBudget.
 */
export class BudgetScope {
  readonly budget: RunBudget;
  readonly parent: BudgetScope | undefined;
  readonly name: string;
  readonly kind: UsageKind;
  /** What this subtree spent (wall time is the root's only). */
  readonly spend: BudgetSpend = emptySpend();
  readonly #children: BudgetScope[] = [];

  /** @internal Use `RunBudget.root` or `scope.child()`. */
  constructor(budget: RunBudget, parent: BudgetScope | undefined, name: string, kind: UsageKind) {
    this.budget = budget;
    this.parent = parent;
    this.name = name;
    this.kind = kind;
  }

  /**
   * A scope below this one. Nodes and tools of the same name share one scope (a node run twice, a
   * tool called twice); each agent invocation gets its own.
   */
  child(name: string, kind: UsageKind): BudgetScope {
    if (kind === 'node' || kind === 'tool') {
      const same = this.#children.find((c) => c.name === name && c.kind === kind);
      if (same) return same;
    }
    const scope = new BudgetScope(this.budget, this, name, kind);
    this.#children.push(scope);
    return scope;
  }

  /** This subtree's spend as a tree (a copy). */
  tree(): UsageTree {
    const spend = { ...this.spend, wallMs: this.parent ? 0 : this.budget.spent.wallMs };
    return { name: this.name, kind: this.kind, spend, children: this.#children.map((c) => c.tree()) };
  }

  /**
   * Before a model call: the limit that stops it, or a reservation of its `maxTokens` (the model's,
   * else `budget.reserveTokens`, else 4096). While calls in flight already commit the rest of the
   * budget, waits for one of them to settle; `undefined` when `signal` aborts meanwhile.
   */
  async reserveModelCall(model: Model, signal: AbortSignal): Promise<Reservation | BudgetExceeded | undefined> {
    const budget = this.budget;
    const { limits } = budget;
    const price = priceOf(limits.prices, model);
    if (limits.costUsd !== undefined && !price) {
      throw new ConfigurationError(
        `budget.costUsd is set but budget.prices has no price for model ${JSON.stringify(model.modelId)}; add { ${JSON.stringify(model.modelId)}: { inputPerMTok, outputPerMTok } } to budget.prices.`,
      );
    }
    const own = (model as { maxTokens?: unknown }).maxTokens;
    const maxTokens = typeof own === 'number' && own > 0 ? own : (limits.reserveTokens ?? DEFAULT_RESERVE_TOKENS);
    for (;;) {
      const over = budget.reached(MODEL_CALL_LIMITS);
      if (over) return over;
      if (!budget.inFlight || !budget.reached(MODEL_CALL_LIMITS, true))
        return budget.hold(modelReservation(maxTokens, price), price);
      await budget.nextSettle(signal);
      if (signal.aborted) return undefined;
    }
  }

  /**
   * After a model call: ends its reservation and records what it really spent (nothing when it
   * failed), priced as `answeredBy` (the model behind a `fallback` or `route` that answered) when the
   * price table has it.
   */
  settleModelCall(reservation: Reservation, usage: Usage | undefined, answeredBy?: string): BudgetWarning[] {
    const price = (answeredBy !== undefined && this.budget.limits.prices?.[answeredBy]) || reservation.price;
    return this.budget.settle(reservation, this, usage ? modelSpend(usage, price) : undefined);
  }

  /**
   * Before a failed model call is retried after `delayMs`: the failed attempt is counted as a model
   * call (unless `count` is false: it was counted as it failed); refused when `modelCalls` is then
   * reached or the wait would reach `wallMs`.
   */
  retryModelCall(delayMs: number, count = true): Taken {
    const warnings = count ? this.countModelCall() : [];
    return { exceeded: this.budget.reachedByRetry(delayMs), warnings };
  }

  /** Counts one failed model request as a model call; returns the warnings it crossed. */
  countModelCall(): BudgetWarning[] {
    return this.budget.record(this, { ...emptySpend(), modelCalls: 1 });
  }

  /** Before a tool runs: refused when the `toolCalls` limit is reached, else counted. */
  takeToolCall(): Taken {
    const exceeded = this.budget.reached(['toolCalls']);
    if (exceeded) return { exceeded, warnings: [] };
    return { exceeded: undefined, warnings: this.budget.record(this, { ...emptySpend(), toolCalls: 1 }) };
  }

  /** Before a node runs: refused when any limit a node needs is reached (tokens, cost, calls, time, node executions), else counted. */
  takeNodeExecution(): Taken {
    const exceeded = this.budget.reached(NODE_LIMITS);
    if (exceeded) return { exceeded, warnings: [] };
    return { exceeded: undefined, warnings: this.budget.record(this, { ...emptySpend(), nodeExecutions: 1 }) };
  }
}
