import type { LoopBudget } from '../budget/loop-budget.js';
import { isDelegating } from '../model/delegating-model.js';
import type { Model, ModelAttempt, ModelObserver } from '../model/model.js';
import type { Invocation } from './loop-host.js';

/**
 * What the models behind a delegating model (`fallback`, `route`) did during one model call, as the
 * loop keeps it: each failed attempt is counted in the budget at once, the attempts wait here until
 * the loop hands them to the watchers as `modelAttempt` events, and the model that answered prices
 * the call and names it in the metrics. Reports about delegating models themselves are left out:
 * the models they delegate to report for them.
 */
export class AttemptLog implements ModelObserver {
  /** Attempts not yet handed to the watchers. */
  pending: ModelAttempt[] = [];
  /** Failed attempts of this call. */
  failed = 0;
  /** The model that answered, when a delegating model said. */
  answeredBy: Model | undefined;
  readonly #budget: LoopBudget | undefined;

  constructor(budget: LoopBudget | undefined) {
    this.#budget = budget;
  }

  attempt(attempt: ModelAttempt): void {
    if (isDelegating(attempt.model)) return;
    if (attempt.outcome === 'failed') {
      this.failed++;
      this.#budget?.failedAttempt();
    } else if (attempt.outcome === 'answered') this.answeredBy = attempt.model;
    this.pending.push(attempt);
  }

  /** Model requests this call made beyond the one the loop counts itself. */
  get extraRequests(): number {
    const made = this.failed + (this.answeredBy ? 1 : 0);
    return made > 1 ? made - 1 : 0;
  }

  /** Hands the pending attempts to the watchers as `modelAttempt` events (drops them when nobody watches). */
  async flush(inv: Invocation): Promise<void> {
    const attempts = this.pending;
    this.pending = [];
    if (inv.unobserved) return;
    for (const a of attempts) {
      const event = {
        type: 'modelAttempt' as const,
        modelId: a.model.modelId,
        model: a.model,
        outcome: a.outcome,
        startedAt: a.startedAt,
        durationMs: a.durationMs,
        ...(a.error === undefined ? {} : { error: a.error }),
      };
      const shown = inv.emit(event);
      if (shown) await shown;
    }
  }
}
