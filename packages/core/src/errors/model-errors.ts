import { SkeinError, type SkeinErrorOptions } from './skein-error.js';

/** Fields a provider can attach to a model error. */
export interface ModelErrorOptions extends SkeinErrorOptions {
  /** HTTP status of the provider's answer, when there was one. */
  status?: number;
  /** The provider's request id, for support tickets. */
  requestId?: string;
}

/** A model call failed for a reason not covered by a more specific class. */
export class ModelError extends SkeinError {
  readonly status: number | undefined;
  readonly requestId: string | undefined;

  constructor(message: string, options: ModelErrorOptions = {}, code = 'model_error') {
    super(message, options, code);
    this.status = options.status;
    this.requestId = options.requestId;
  }
}

/** Options of {@link ModelThrottledError}. */
export interface ModelThrottledErrorOptions extends ModelErrorOptions {
  /** How long the server asked us to wait, in ms, when it said. */
  retryAfterMs?: number;
}

/** The provider is rate limiting or overloaded; the agent loop retries these with backoff. */
export class ModelThrottledError extends ModelError {
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: ModelThrottledErrorOptions = {}) {
    super(message, options, 'model_throttled');
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * A transient fault of the provider or the network: a 5xx answer, a connection reset or refused, a
 * stream cut before its end event, a timeout before the first byte. Nothing the request did caused
 * it, so the same request may succeed when tried again; the default retry strategy retries it.
 */
export class ModelTransientError extends ModelError {
  constructor(message: string, options: ModelErrorOptions = {}) {
    super(message, options, 'model_transient');
  }
}

/** The request does not fit the model's context window; the loop asks the conversation manager to reduce it. */
export class ContextWindowOverflowError extends ModelError {
  constructor(message: string, options: ModelErrorOptions = {}) {
    super(message, options, 'context_window_overflow');
  }
}

/** One failed attempt of a fallback chain: which model, why, and when. */
export interface FallbackAttemptRecord {
  /** The model's id. */
  modelId: string;
  /** What it threw (or, when skipped, the failure that opened its circuit breaker). */
  error: unknown;
  /** `failed`, or `skipped` while its circuit breaker was open. */
  outcome: 'failed' | 'skipped';
  /** When the attempt started, as an ISO timestamp. */
  at: string;
  /** How long it took, in ms. */
  durationMs: number;
}

/** Options of {@link ModelFallbackError}. */
export interface ModelFallbackErrorOptions extends ModelErrorOptions {
  /** Every attempt, in order; the first is the primary's. */
  attempts: readonly FallbackAttemptRecord[];
}

/**
 * Every model of a `fallback` chain failed (or one failed in a way another model cannot fix). `cause`
 * is the primary's error; `attempts` lists each model tried with its error and time; `last` is the
 * error that ended the chain, which decides what the agent loop does next (retry, reduce the context,
 * or fail).
 */
export class ModelFallbackError extends ModelError {
  readonly attempts: readonly FallbackAttemptRecord[];

  constructor(message: string, options: ModelFallbackErrorOptions) {
    super(message, options, 'model_fallback');
    this.attempts = options.attempts;
  }

  /** The error that ended the chain (the last attempt's). */
  get last(): unknown {
    return this.attempts.at(-1)?.error;
  }
}

/** The error that decides what follows a failed model call: a fallback chain's last error, else the error itself. */
export function decisiveError(error: unknown): unknown {
  return ModelFallbackError.is(error) ? error.last : error;
}
