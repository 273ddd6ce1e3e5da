/**
 * The abort signal of one invocation, made only when something asks for it. Making an `AbortSignal`
 * costs far more than an invocation of a zero-latency model (Node builds each on a slow path), and
 * most invocations are never cancelled: until a model reads its request's signal or a tool runs, an
 * abort is only recorded, and `aborted` answers from that record and the caller's signal.
 */
export class InvocationSignal {
  readonly #caller: AbortSignal | undefined;
  #controller: AbortController | undefined;
  /** An abort asked for before the signal was made: the reason it carries once made. */
  #early: { reason: unknown } | undefined;
  /** Set when the made signal is aborted (only this object aborts it): reading it is a field read. */
  #abortedMade = false;
  readonly #onCallerAbort = (): void => this.#abortMade(this.#caller?.reason);

  /** `caller`: the signal the caller gave (`InvokeOptions.signal`); aborting it aborts this one. */
  constructor(caller: AbortSignal | undefined) {
    this.#caller = caller;
  }

  /** True once the invocation was aborted (by the caller, `cancel()` or an early end); makes no signal. */
  get aborted(): boolean {
    if (this.#controller) return this.#abortedMade;
    return this.#early !== undefined || this.#caller?.aborted === true;
  }

  /** True once the signal was made (someone may be listening to it). */
  get made(): boolean {
    return this.#controller !== undefined;
  }

  /** The signal, made on first use: linked to the caller's, and aborted already when the invocation was. */
  get signal(): AbortSignal {
    let controller = this.#controller;
    if (!controller) {
      controller = this.#controller = new AbortController();
      const caller = this.#caller;
      if (this.#early) this.#abortMade(this.#early.reason);
      else if (caller?.aborted) this.#abortMade(caller.reason);
      else caller?.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
    return controller.signal;
  }

  /** Aborts the invocation (the first reason wins, the caller's included). */
  abort(reason: unknown): void {
    if (this.#controller) this.#abortMade(reason);
    else if (!this.aborted) this.#early = { reason };
  }

  #abortMade(reason: unknown): void {
    if (this.#abortedMade) return;
    this.#abortedMade = true;
    this.#controller?.abort(reason);
  }

  /** Unlinks the caller's signal. */
  detach(): void {
    if (this.#controller) this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }
}
