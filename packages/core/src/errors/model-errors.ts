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
