import { openBudgetScope, type OpenScope } from '../budget/open-scope.js';
import { LoopBudget } from '../budget/loop-budget.js';
import type { GuardRun } from '../guardrails/guard-run.js';
import type { Principal } from '../doors/principal.js';
import type { Listeners } from '../events/listeners.js';
import type { Handoff } from './handoff.js';
import type { Invocation, InvocationTools } from '../loop/loop-host.js';
import type { ResumeAnswers } from '../interrupt/pending-turn.js';
import type { InvocationState } from '../types/invocation-state.js';
import { InvocationSignal } from './invocation-signal.js';
import type { LoopOutcome } from '../loop/event-loop.js';
import { AgentMetrics } from '../metrics/agent-metrics.js';
/** Who reads an invocation's events: a `stream()` reader, or the caller's stream of an agent used as a tool. */
type Reader = (event: AgentStreamEvent) => Promise<void> | undefined;
import type { AgentStreamEvent, CallbackHandler, RequestState } from './agent-events.js';
import { depthOf, placeEvent, placeOf, withinDepth, type RunPlace } from '../events/event-place.js';
import { AgentResult } from './agent-result.js';
import type { InvokeOptions } from './agent-handle.js';

/** What opening an invocation reads of its agent. */
export interface InvocationOwner {
  readonly name: string;
  /** The handoffs offered in this invocation (the caller's, or the agent's own). */
  readonly handoffs: readonly Handoff[];
  readonly callbackHandler: CallbackHandler | undefined;
  readonly listeners: Listeners<AgentStreamEvent> | undefined;
  /** Who calls the agent's tools when the caller does not say (see `InvokeOptions.idempotencyScope`). */
  readonly defaultScope: string;
}

/**
 * The state of one invocation as the loop reads and changes it. Its abort signal is made on first
 * use (see `InvocationSignal`): `aborted` answers without making it.
 */
class LiveInvocation implements Invocation {
  readonly requestState: RequestState = {};
  readonly invocationState: InvocationState;
  readonly metrics = new AgentMetrics();
  readonly extra: InvocationTools | undefined;
  readonly handoffs: readonly Handoff[];
  resume: ResumeAnswers | undefined = undefined;
  budget: LoopBudget | undefined = undefined;
  guards: GuardRun | undefined = undefined;
  readonly unobserved: boolean;
  readonly emit: Invocation['emit'];
  readonly onMessageAdded: Invocation['onMessageAdded'];
  readonly idempotencyScope: string;
  readonly principal: Principal | undefined;
  readonly memory: Invocation['memory'];
  readonly abortion: InvocationSignal;
  readonly path: string;
  readonly nested: RunPlace | undefined;

  constructor(
    options: InvokeOptions,
    extra: InvocationTools | undefined,
    reader: Reader | undefined,
    owner: InvocationOwner,
  ) {
    const { callbackHandler: handler, listeners } = owner;
    this.abortion = new InvocationSignal(options.signal);
    this.invocationState = options.invocationState ?? {};
    this.extra = extra;
    this.handoffs = owner.handoffs;
    // Listeners added during the run go to a Listeners object made then, which this run never emits to.
    this.unobserved = !reader && !handler && !listeners;
    // Given by whoever runs this agent as a tool, else by an orchestrator (its node path), else its name.
    const place = placeOf(options);
    this.path = place?.path ?? options.guardrails?.path ?? owner.name;
    const depth = depthOf(this.path);
    const maxDepth = options.depth ?? place?.maxDepth;
    const seen = reader !== undefined || handler !== undefined || listeners?.has('toolStream') === true;
    this.nested = seen && withinDepth(depth + 1, maxDepth) ? { path: this.path, maxDepth } : undefined;
    this.emit = this.unobserved ? NOBODY : emitter(listeners, handler, reader, this.requestState, this.path, depth);
    this.onMessageAdded = options.onMessageAdded;
    this.idempotencyScope = options.idempotencyScope ?? owner.defaultScope;
    this.principal = options.principal;
    this.memory = options.memory;
  }

  get signal(): AbortSignal {
    return this.abortion.signal;
  }

  get aborted(): boolean {
    return this.abortion.aborted;
  }

  get signalMade(): boolean {
    return this.abortion.made;
  }
}

/**
 * One invocation's wiring around the loop: its state (with its abort signal, linked to the caller's,
 * and the function that hands each event to the listeners, the callback handler and the stream's
 * reader), and its place in the run-tree budget. Opened before the loop, detached after.
 */
export class OpenInvocation {
  readonly inv: LiveInvocation;
  readonly budgetScope: OpenScope | undefined;
  readonly #started = performance.now();

  /** `reader`: the `stream()` reader's side, when the caller reads the events rather than only the result. */
  constructor(
    options: InvokeOptions,
    extra: InvocationTools | undefined,
    reader: Reader | undefined,
    owner: InvocationOwner,
  ) {
    this.inv = new LiveInvocation(options, extra, reader, owner);
    // Without a budget option or an invocation state there is no run tree to find: no budget work.
    this.budgetScope =
      options.budget !== undefined || options.invocationState !== undefined
        ? openBudgetScope(options.budget, this.inv.invocationState, owner.name, 'agent', !options.invocationState)
        : undefined;
    if (this.budgetScope) this.inv.budget = new LoopBudget(this.budgetScope.scope);
  }

  /** Aborts the invocation (`cancel()`, an early end): the first reason wins. */
  abort(reason: unknown): void {
    this.inv.abortion.abort(reason);
  }

  /** The result of a loop that ended with `outcome`. */
  result(outcome: LoopOutcome): AgentResult {
    const { inv, budgetScope } = this;
    return new AgentResult({
      stopReason: outcome.stopReason,
      message: outcome.message,
      metrics: inv.metrics,
      state: inv.requestState,
      ...(outcome.handoff ? { handoff: outcome.handoff } : {}),
      ...(outcome.interrupts ? { interrupts: outcome.interrupts } : {}),
      ...(budgetScope ? { usage: budgetScope.scope.tree() } : {}),
      ...(outcome.budgetExceeded ? { budgetExceeded: outcome.budgetExceeded } : {}),
    });
  }

  /** Unlinks the caller's signal, leaves the budget, and records how long the invocation took. */
  detach(): void {
    this.inv.abortion.detach();
    this.budgetScope?.close();
    this.inv.metrics.durationMs = performance.now() - this.#started;
  }
}

const NOBODY = (): undefined => undefined;

/**
 * The invocation's `emit`: stamps each event with its place (`path`, `depth`), then hands it to the
 * listeners and the callback handler, then the reader.
 */
function emitter(
  listeners: Listeners<AgentStreamEvent> | undefined,
  handler: CallbackHandler | undefined,
  reader: Reader | undefined,
  requestState: RequestState,
  path: string,
  depth: number,
): Invocation['emit'] {
  if (!listeners && !handler && reader) return (data) => reader(placeEvent(data, path, depth));
  return (data) => {
    const e = placeEvent(data, path, depth);
    listeners?.emit(e);
    if (handler) handler({ ...e, requestState });
    return reader?.(e);
  };
}

/**
 * Runs cleanup steps that must all be tried, keeping their errors: the invocation's own error wins and
 * carries them as `suppressed`; without one, the first cleanup error is thrown.
 */
export class Cleanup {
  readonly #errors: unknown[] = [];

  /** Runs one step, keeping its error; a promise only when the step returned one (await it then). */
  step(work: () => unknown): Promise<void> | undefined {
    let result: unknown;
    try {
      result = work();
    } catch (e) {
      this.#errors.push(e);
      return undefined;
    }
    if (!(result instanceof Promise)) return undefined;
    return result.then(
      () => undefined,
      (e: unknown) => void this.#errors.push(e),
    );
  }

  /** Throws the first cleanup error, or attaches them all to `error` (the invocation's own). */
  settle(error: unknown): void {
    if (this.#errors.length === 0) return;
    if (error === undefined) throw this.#errors[0];
    if (typeof error === 'object' && error !== null && Object.isExtensible(error)) {
      Object.defineProperty(error, 'suppressed', {
        value: this.#errors,
        enumerable: false,
        configurable: true,
      });
    }
  }
}
