/**
 * How an invocation finds its budget: its own `budget` option (orchestrators and agents-as-tools
 * pass their nodes a scope explicitly), else the budget of the run tree it belongs to, found
 * through its invocation state when skein made that object for the tree's root (a tool that
 * invokes an agent with `context.invocationState` then stays in the tree). An invocation state the
 * caller owns is never marked: callers may share one object between unrelated runs. No budget
 * anywhere: `undefined`, and the loop does no budget work at all.
 */
import { BudgetScope } from './budget-scope.js';
import type { Budget, UsageKind } from './budget-types.js';
import { RunBudget } from './run-budget.js';

/** What `budget` on an invoke accepts: limits (a new budget for this run tree), a shared RunBudget, or a scope an orchestrator passes to its node. */
export type BudgetOption = Budget | RunBudget | BudgetScope;

/** The run tree's budget by invocation-state object (set by the invocation that created or joined it). */
const byInvocationState = new WeakMap<object, BudgetScope>();
/** The budget scope of the invocation running a tool, and the tool's name, by tool context (for agents used as tools). */
const byToolContext = new WeakMap<object, { scope: BudgetScope; tool: string }>();

/** An invocation's place in the budget, and how to leave it. */
export interface OpenScope {
  readonly scope: BudgetScope;
  /** True when this invocation made the budget (from limits): it is the root of the run tree. */
  readonly fresh: boolean;
  /** Unregisters what `openBudgetScope` registered (call when the invocation ends). */
  close(): void;
}

const NOTHING = (): void => undefined;

/**
 * The budget scope of an invocation named `name`: below the scope it was given, below the shared
 * budget it was given (or at the root of a new one made from limits), or below the run tree's
 * budget its invocation state carries. A new tree's root is registered on `invocationState` when
 * skein made that object (`owned`), so that what a tool invokes with it finds the tree.
 */
export function openBudgetScope(
  option: BudgetOption | undefined,
  invocationState: object,
  name: string,
  kind: UsageKind,
  owned = false,
): OpenScope | undefined {
  if (option === undefined) {
    const tree = byInvocationState.get(invocationState);
    return tree ? { scope: tree.child(name, kind), fresh: false, close: NOTHING } : undefined;
  }
  if (option instanceof BudgetScope) return { scope: option.child(name, kind), fresh: false, close: NOTHING };
  const previous = byInvocationState.get(invocationState);
  // Limits given inside a run tree that has a budget: a budget of their own that also draws from the tree's.
  const scope =
    option instanceof RunBudget
      ? option.root.child(name, kind)
      : new RunBudget(option, { name, kind }, previous?.child(name, kind)).root;
  // Nested in a tree, the tree's own budget stays the one found through it; a caller's object is never marked.
  if (previous || !owned) return { scope, fresh: !(option instanceof RunBudget), close: NOTHING };
  byInvocationState.set(invocationState, scope);
  return {
    scope,
    fresh: !(option instanceof RunBudget),
    close: () => {
      if (byInvocationState.get(invocationState) === scope) byInvocationState.delete(invocationState);
    },
  };
}

/** Marks a tool context with the scope of the invocation running the tool. */
export function attachToolScope(context: object, scope: BudgetScope, tool: string): void {
  byToolContext.set(context, { scope, tool });
}

/**
 * The budget scope for what a tool invokes (an agent used as a tool): a `tool` scope below the
 * invocation that runs the tool, or `undefined` when that invocation has no budget.
 */
export function toolBudgetScope(context: object): BudgetScope | undefined {
  const at = byToolContext.get(context);
  return at?.scope.child(at.tool, 'tool');
}
