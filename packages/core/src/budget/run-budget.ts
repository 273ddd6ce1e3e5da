import { ConfigurationError } from '../errors/configuration-errors.js';
import { BudgetScope } from './budget-scope.js';
import { BUDGET_LIMITS, emptySpend, type Budget, type BudgetExceeded, type BudgetLimit, type BudgetSpend, type BudgetWarning, type ModelPrice, type UsageKind } from './budget-types.js';
import { addSpend, crossedWarnings, reachedLimit } from './ledger.js';

/** A held reservation: what it counts in flight until it is settled or released. */
export interface Reservation {
  readonly amount: BudgetSpend;
  readonly price: ModelPrice | undefined;
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
  readonly #spent = emptySpend();
  readonly #reserved = emptySpend();
  readonly #warned = new Set<BudgetLimit>();
  #started = performance.now();
  #wallBefore = 0;
  #waiters: (() => void)[] = [];

  constructor(limits: Budget, root: { name?: string; kind?: UsageKind } = {}) {
    checkBudget(limits);
    this.limits = { ...limits };
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
    return reachedLimit(this.limits, which, this.spent, withReserved ? this.#reserved : undefined);
  }

  /** @internal True while some call holds a reservation. */
  get inFlight(): boolean {
    return this.#reserved.modelCalls > 0;
  }

  /** @internal Counts `amount` as in flight. */
  hold(amount: BudgetSpend, price: ModelPrice | undefined): Reservation {
    addSpend(this.#reserved, amount);
    return { amount, price, done: false };
  }

  /** @internal Ends a reservation; `spent` (if any) is recorded at `scope` and its ancestors. Returns the warnings it crossed. */
  settle(reservation: Reservation, scope: BudgetScope, spent: BudgetSpend | undefined): BudgetWarning[] {
    if (!reservation.done) {
      reservation.done = true;
      addSpend(this.#reserved, reservation.amount, -1);
    }
    const warnings = spent ? this.record(scope, spent) : [];
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
    return warnings;
  }

  /** @internal Records `spent` at `scope` and its ancestors; returns the warnings it crossed. */
  record(scope: BudgetScope, spent: BudgetSpend): BudgetWarning[] {
    addSpend(this.#spent, spent);
    for (let s: BudgetScope | undefined = scope; s; s = s.parent) addSpend(s.spend, spent);
    return crossedWarnings(this.limits, this.spent, this.#warned);
  }

  /** @internal Resolves at the next settle (or when `signal` aborts). */
  nextSettle(signal: AbortSignal | undefined): Promise<void> {
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
  if (typeof limits !== 'object' || limits === null) throw new ConfigurationError('budget must be an object of limits, e.g. { totalTokens: 100000 }.');
  for (const key of [...BUDGET_LIMITS, 'warnAt', 'reserveTokens'] as const) {
    const v = limits[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) {
      throw new ConfigurationError(`budget.${key} must be a finite number of 0 or more (got ${String(v)}).`);
    }
  }
}
