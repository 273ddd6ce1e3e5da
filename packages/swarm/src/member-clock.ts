import { TimeoutError } from '@skein/core';

/** A member turn's time limit, and what its timeout says. */
export interface TurnLimit {
  nodeId: string;
  /** The turn's limit, in ms: its nodeTimeout, or what is left of the run's time when that is less. */
  limitMs: number;
  /** True when what is left of the run's executionTimeout set the limit. */
  runLimited: boolean;
  nodeTimeoutMs: number;
  executionTimeoutMs: number;
}

/**
 * The time limits of one swarm invocation's member turns: one abort controller (linked to the
 * caller's signal) and one timer for the whole invocation, instead of a controller and a timer per
 * turn, which showed in the CPU profiles of handoff-heavy runs. Each turn sets its deadline; the
 * timer, armed at the earliest deadline it was asked for, re-arms itself when it finds the running
 * turn's deadline later. A turn whose time runs out aborts the controller: the swarm then fails the
 * run, so no later turn of the invocation needs a fresh one.
 */
export class MemberClock {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #onAbort = (): void => this.#controller.abort(this.#caller?.reason);
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerDue = Number.POSITIVE_INFINITY;
  #due = Number.POSITIVE_INFINITY;
  #turn: TurnLimit | undefined;
  #timedOut = false;

  constructor(caller: AbortSignal | undefined) {
    this.#caller = caller;
    if (caller?.aborted) this.#onAbort();
    else caller?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** The signal member turns run under: aborted by a turn's timeout or by the caller. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The caller's signal (cancels the run). */
  get caller(): AbortSignal | undefined {
    return this.#caller;
  }

  /** Starts a turn's time: the signal is aborted with a `TimeoutError` `limit.limitMs` from now. */
  start(limit: TurnLimit): void {
    this.#turn = limit;
    this.#timedOut = false;
    this.#due = performance.now() + limit.limitMs;
    if (this.#timer === undefined || this.#due < this.#timerDue) this.#arm(limit.limitMs);
  }

  /** Ends the running turn's time (the timer stays armed for the next turn, or until `dispose`). */
  stop(): void {
    this.#turn = undefined;
    this.#due = Number.POSITIVE_INFINITY;
  }

  /** True when the last turn's time ran out. */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  /** True when the caller's signal stopped the turn (not its time limit). */
  get interrupted(): boolean {
    return !this.#timedOut && this.#caller?.aborted === true;
  }

  /** Stops the timer and unlinks the caller's signal: the invocation is over. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#caller?.removeEventListener('abort', this.#onAbort);
  }

  #arm(ms: number): void {
    clearTimeout(this.#timer);
    this.#timerDue = performance.now() + ms;
    this.#timer = setTimeout(this.#fire, ms);
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.#timerDue = Number.POSITIVE_INFINITY;
    const turn = this.#turn;
    if (!turn || this.#controller.signal.aborted) return;
    const left = this.#due - performance.now();
    // A timer armed for an earlier turn: wait for what is left of this one.
    if (left >= 1) return this.#arm(Math.ceil(left));
    this.#timedOut = true;
    this.#controller.abort(new TimeoutError(timeoutText(turn), turn.limitMs));
  };
}

function timeoutText(turn: TurnLimit): string {
  return turn.runLimited
    ? `the swarm's executionTimeout of ${turn.executionTimeoutMs} ms elapsed while ${turn.nodeId} was running`
    : `node ${turn.nodeId} exceeded the nodeTimeout of ${turn.nodeTimeoutMs} ms`;
}
