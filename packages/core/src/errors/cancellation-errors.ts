import { SkeinError, type SkeinErrorOptions } from './skein-error.js';

/** Work was cancelled through an AbortSignal or `cancel()`. Agents end with `stopReason: 'cancelled'` instead. */
export class CancelledError extends SkeinError {
  constructor(message = 'The operation was cancelled.', options: SkeinErrorOptions = {}) {
    super(message, options, 'cancelled');
  }
}

/** A timeout elapsed (a node timeout, an execution timeout). */
export class TimeoutError extends CancelledError {
  readonly timeoutMs: number;

  constructor(message: string, timeoutMs: number, options: SkeinErrorOptions = {}) {
    super(message, options);
    this.timeoutMs = timeoutMs;
  }
}
