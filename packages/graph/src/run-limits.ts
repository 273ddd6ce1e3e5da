/**
 * What stops a run from outside: the caller's signal (the run ends `interrupted`, a session resumes
 * it) and the graph's execution timeout (the run fails), armed when the run starts and cleared when it
 * ends. Time spent before (a resumed run) counts against the timeout.
 */
export class RunLimits {
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort: () => void;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    signal: AbortSignal | undefined,
    executionTimeoutMs: number | undefined,
    elapsedBeforeMs: number,
    halt: (status: 'interrupted' | 'failed', reason: string) => void,
  ) {
    this.#signal = signal;
    this.#onAbort = () =>
      halt('interrupted', 'The run was cancelled; invoke the graph again with the same session to resume it.');
    if (signal?.aborted) this.#onAbort();
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
    const left = executionTimeoutMs === undefined ? undefined : Math.max(0, executionTimeoutMs - elapsedBeforeMs);
    this.#timer =
      left === undefined
        ? undefined
        : setTimeout(
            () => halt('failed', `Execution timeout of ${executionTimeoutMs} ms reached (setExecutionTimeout).`),
            left,
          );
  }

  /** Disarms both. */
  clear(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }
}
