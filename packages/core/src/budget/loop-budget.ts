import type { AgentEventData } from '../agent/agent-events.js';
import type { AgentHandle } from '../agent/agent-handle.js';
import type { HookRegistry } from '../hooks/hook-registry.js';
import type { ModelTurn } from '../loop/stream-accumulator.js';
import type { AgentMetrics } from '../metrics/agent-metrics.js';
import type { Model } from '../model/model.js';
import type { BudgetScope } from './budget-scope.js';
import type { BudgetExceeded, BudgetWarning } from './budget-types.js';
import { BudgetWarningEvent } from './budget-warning-event.js';

/** Asked before a failed attempt is retried after `delayMs`: the budget limit that stops the retry, if any. */
export type RetryGate = (delayMs: number) => BudgetExceeded | undefined;

/** What one model call came to: the answer, `undefined` when cancelled, or the budget limit that refused a retry. */
export type ModelCallOutcome = ModelTurn | BudgetExceeded | undefined;

/** What the budget reads of the loop's agent (the loop's host is one). */
interface BudgetHost {
  readonly model: Model;
  readonly hooks: HookRegistry;
  readonly agent: AgentHandle;
}

/** What the budget reads of the invocation (the loop's invocation is one). */
interface BudgetInvocation {
  readonly signal: AbortSignal;
  readonly metrics: AgentMetrics;
  readonly emit: (event: AgentEventData) => Promise<void> | undefined;
}

/**
 * The budget of one agent invocation, as the loop sees it: model calls reserve and settle, tools
 * take a call each, and warnings wait here until the loop hands them on. Exists only when the
 * invocation has a budget; without one the loop never touches any of this.
 */
export class LoopBudget {
  readonly scope: BudgetScope;
  /** The limit that refused a tool of the current turn (the loop stops after the turn, keeping the refused uses). */
  refused: BudgetExceeded | undefined;
  #warnings: BudgetWarning[] = [];
  /** Failed attempts behind a delegating model counted since the last retry gate. */
  #failedSinceGate = 0;

  constructor(scope: BudgetScope) {
    this.scope = scope;
  }

  /**
   * Runs one model call inside a reservation that settles to the call's real usage. Returns the
   * limit instead when one is reached before the call (nothing is called) or before a retry (each
   * failed attempt counts as a model call, and a retry whose wait would pass `wallMs` is not made),
   * `undefined` when cancelled.
   */
  async modelCall(
    host: BudgetHost,
    inv: BudgetInvocation,
    call: (retryGate: RetryGate) => Promise<ModelCallOutcome>,
  ): Promise<ModelCallOutcome> {
    const held = await this.scope.reserveModelCall(host.model, inv.signal);
    if (!held || !('amount' in held)) return held;
    this.#failedSinceGate = 0;
    const u = inv.metrics.usage;
    const before = {
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      totalTokens: u.totalTokens,
      read: u.cacheReadInputTokens,
      write: u.cacheWriteInputTokens,
    };
    const retryGate: RetryGate = (delayMs) => {
      // Attempts of a fallback chain were counted as they failed; a bare model's failed attempt is counted here.
      const taken = this.scope.retryModelCall(delayMs, this.#failedSinceGate === 0);
      this.#failedSinceGate = 0;
      this.#warnings.push(...taken.warnings);
      return taken.exceeded;
    };
    let outcome: ModelCallOutcome;
    try {
      outcome = await call(retryGate);
      return outcome;
    } finally {
      const spent = {
        inputTokens: u.inputTokens - before.inputTokens,
        outputTokens: u.outputTokens - before.outputTokens,
        totalTokens: u.totalTokens - before.totalTokens,
        cacheReadInputTokens: u.cacheReadInputTokens - before.read,
        cacheWriteInputTokens: u.cacheWriteInputTokens - before.write,
      };
      const called = spent.totalTokens > 0 || spent.inputTokens > 0 || spent.outputTokens > 0;
      const answeredBy = outcome && 'answeredBy' in outcome ? outcome.answeredBy : undefined;
      this.#warnings.push(...this.scope.settleModelCall(held, called ? spent : undefined, answeredBy));
    }
  }

  /** Counts a failed attempt behind a delegating model (`fallback`) as a model call, as it fails. */
  failedAttempt(): void {
    this.#failedSinceGate++;
    const warnings = this.scope.countModelCall();
    if (warnings.length > 0) this.#warnings.push(...warnings);
  }

  /** Takes one tool call from the budget; returns the limit that refuses it (the use is kept, unrun, for a resume). */
  tool(): BudgetExceeded | undefined {
    const taken = this.scope.takeToolCall();
    if (taken.warnings.length > 0) this.#warnings.push(...taken.warnings);
    if (taken.exceeded) this.refused ??= taken.exceeded;
    return taken.exceeded;
  }

  /** Hands the warnings raised since the last flush to the watchers as `budgetWarning` events, after firing `BudgetWarningEvent` hooks. */
  async flush(host: BudgetHost, inv: BudgetInvocation): Promise<void> {
    if (this.#warnings.length === 0) return;
    const warnings = this.#warnings;
    this.#warnings = [];
    for (const warning of warnings) {
      if (host.hooks.has(BudgetWarningEvent)) await host.hooks.invoke(new BudgetWarningEvent(host.agent, warning));
      await inv.emit({ type: 'budgetWarning', warning });
    }
  }
}
