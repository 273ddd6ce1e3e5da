import { ConfigurationError } from '../errors/configuration-errors.js';
import { BudgetScope } from './budget-scope.js';
import {
  BUDGET_LIMITS,
  emptySpend,
  type Budget,
  type BudgetExceeded,
  type BudgetLimit,
  type BudgetSpend,
  type BudgetWarning,
  type ModelPrice,
  type UsageKind,
} from './budget-types.js';
import { addSpend, crossedWarnings, reachedLimit } from './ledger.js';

/** A held reservation: what it counts in flight until it is settled or released. */
export interface Reservation {
  readonly amount: BudgetSpend;
  readonly price: ModelPrice | undefined;
  /** The same amount held in the enclosing budget, for a budget nested in another. */
  readonly outer: Reservation | undefined;
  done: boolean;
}

/**
 * The live ledger of one budget: limits, what the run tree spent, what calls in flight reserved,
 * and the warnings already raised. Pass the limits as `budget` to an invoke and one is made for the
 * run; make one yourself and pass it to several invokes to share it (a per-conversation budget).
 * @example
 * const budget = new RunBudget({ costUsd: 0.5, prices: { 'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15 } } });
 * await agent.invoke('first question', { budget });
 * await agent.invoke('second question', { budget });
 * console.log(budget.spent.costUsd);
 */
export class RunBudget {
  /** The limits and accounting options. */
  readonly limits: Readonly<Budget>;
  /** The top of the usage tree. */
  readonly root: BudgetScope;
  /** Where this budget sits in an enclosing run tree's budget (a nested invocation given its own limits): it also draws from that one. */
  readonly #outer: BudgetScope | undefined;
  readonly #spent = emptySpend();
  readonly #reserved = emptySpend();
  readonly #warned = new Set<BudgetLimit>();
  #started = performance.now();
  #wallBefore = 0;
  #waiters: (() => void)[] = [];

  /**
   * @param limits the limits and accounting options
   * @param root the name and kind of the usage tree's root (default `run`)
   * @param outer a scope of an enclosing budget this one also draws from (its limits apply too)
   */
  constructor(limits: Budget, root: { name?: string; kind?: UsageKind } = {}, outer?: BudgetScope) {
    checkBudget(limits);
    this.limits = { ...limits };
    this.#outer = outer;
    this.root = new BudgetScope(this, undefined, root.name ?? 'run', root.kind ?? 'run');
  }

  /** What the run tree spent so far (earlier processes included after `restore`). */
  get spent(): BudgetSpend {
    return { ...this.#spent, wallMs: this.#wall() };
  }

  /** The first limit reached (of all of them), or `undefined`. */
  get exceeded(): BudgetExceeded | undefined {
    return reachedLimit(this.limits, BUDGET_LIMITS, this.spent);
  }

  /**
   * Adds what a run spent in earlier processes (orchestrators call it when they resume a stored run,
   * so the limits cover the whole run). Warnings already passed are not raised again.
   */
  restore(spent: Partial<BudgetSpend>): void {
    const add = { ...emptySpend(), ...spent };
    this.#wallBefore += add.wallMs;
    addSpend(this.#spent, { ...add, wallMs: 0 });
    addSpend(this.root.spend, { ...add, wallMs: 0 }); // the root's own row holds what earlier processes spent
    crossedWarnings(this.limits, this.spent, this.#warned);
  }

  /** The counters as JSON (for a session). */
  toJSON(): { limits: Budget; spent: BudgetSpend } {
    return { limits: { ...this.limits }, spent: this.spent };
  }

  /** @internal The first of `which` limits reached by what is spent, plus what is in flight when `withReserved`. */
  reached(which: readonly BudgetLimit[], withReserved = false): BudgetExceeded | undefined {
    return (
      reachedLimit(this.limits, which, this.spent, withReserved ? this.#reserved : undefined) ??
      this.#outer?.budget.reached(which, withReserved)
    );
  }

  /** @internal The `modelCalls` limit reached, or the `wallMs` limit a wait of `delayMs` would reach (here or in the enclosing budget). */
  reachedByRetry(delayMs: number): BudgetExceeded | undefined {
    const spent = this.spent;
    return (
      reachedLimit(this.limits, ['modelCalls'], spent) ??
      reachedLimit(this.limits, ['wallMs'], spent, { ...emptySpend(), wallMs: delayMs }) ??
      this.#outer?.budget.reachedByRetry(delayMs)
    );
  }

  /** @internal True while some call holds a reservation (here or in the enclosing budget). */
  get inFlight(): boolean {
    return this.#reserved.modelCalls > 0 || this.#outer?.budget.inFlight === true;
  }

  /** @internal Counts `amount` as in flight (in the enclosing budget too). */
  hold(amount: BudgetSpend, price: ModelPrice | undefined): Reservation {
    addSpend(this.#reserved, amount);
    return { amount, price, outer: this.#outer?.budget.hold(amount, price), done: false };
  }

  /** @internal Ends a reservation; `spent` (if any) is recorded at `scope` and its ancestors. Returns the warnings it crossed. */
  settle(reservation: Reservation, scope: BudgetScope, spent: BudgetSpend | undefined): BudgetWarning[] {
    const warnings = spent ? this.record(scope, spent) : [];
    this.#release(reservation);
    return warnings;
  }

  /** @internal Records `spent` at `scope` and its ancestors (and in the enclosing budget); returns the warnings it crossed. */
  record(scope: BudgetScope, spent: BudgetSpend): BudgetWarning[] {
    addSpend(this.#spent, spent);
    for (let s: BudgetScope | undefined = scope; s; s = s.parent) addSpend(s.spend, spent);
    const warnings = crossedWarnings(this.limits, this.spent, this.#warned);
    return this.#outer ? [...warnings, ...this.#outer.budget.record(this.#outer, spent)] : warnings;
  }

  #release(reservation: Reservation): void {
    if (reservation.done) return;
    reservation.done = true;
    addSpend(this.#reserved, reservation.amount, -1);
    if (reservation.outer && this.#outer) this.#outer.budget.#release(reservation.outer);
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** @internal Resolves at the next settle here or in the enclosing budget (or when `signal` aborts). */
  nextSettle(signal: AbortSignal | undefined): Promise<void> {
    const own = this.#nextOwnSettle(signal);
    return this.#outer ? Promise.race([own, this.#outer.budget.nextSettle(signal)]) : own;
  }

  #nextOwnSettle(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = (): void => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.#waiters.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  #wall(): number {
    return this.#wallBefore + (performance.now() - this.#started);
  }
}

function checkBudget(limits: Budget): void {
  if (typeof limits !== 'object' || limits === null)
    throw new ConfigurationError('budget must be an object of limits, e.g. { totalTokens: 100000 }.');
  for (const key of [...BUDGET_LIMITS, 'warnAt', 'reserveTokens'] as const) {
    const v = limits[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) {
      throw new ConfigurationError(`budget.${key} must be a finite number of 0 or more (got ${String(v)}).`);
    }
  }
}
