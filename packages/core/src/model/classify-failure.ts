import { BudgetStopRaised } from '../budget/budget-stop-raised.js';
import { CancelledError } from '../errors/cancellation-errors.js';
import {
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
} from '../errors/model-errors.js';
import { isStreamClosed } from '../events/lockstep-stream.js';
import { InterruptRaised } from '../interrupt/interrupt.js';

/**
 * What a failed model call means for a fallback chain: `next` — another model can succeed (throttled,
 * overloaded, a 5xx, a reset connection, a stream cut before any output); `stop` — the request itself
 * is wrong and would fail anywhere (4xx validation, auth, not found, context too long, anything not a
 * model error); `pass` — not a failure of the model at all (cancellation, an interrupt, a budget stop,
 * the reader going away): it passes through untouched.
 */
export type FailureKind = 'next' | 'stop' | 'pass';

/** Statuses that mean "try elsewhere" when a provider did not classify them itself. */
function retryableStatus(status: number | undefined): boolean {
  return status !== undefined && (status >= 500 || status === 408 || status === 409 || status === 429);
}

/** Classifies what a model's stream threw (see {@link FailureKind}); `signal` aborted means `pass`. */
export function classifyFailure(error: unknown, signal?: AbortSignal): FailureKind {
  if (signal?.aborted) return 'pass';
  if (
    CancelledError.is(error) ||
    error instanceof InterruptRaised ||
    error instanceof BudgetStopRaised ||
    isStreamClosed(error) ||
    (error instanceof Error && error.name === 'AbortError')
  )
    return 'pass';
  if (ModelThrottledError.is(error) || ModelTransientError.is(error)) return 'next';
  if (ContextWindowOverflowError.is(error)) return 'stop';
  if (ModelError.is(error) && retryableStatus(error.status)) return 'next';
  return 'stop';
}
