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

/** The request does not fit the model's context window; the loop asks the conversation manager to reduce it. */
export class ContextWindowOverflowError extends ModelError {
  constructor(message: string, options: ModelErrorOptions = {}) {
    super(message, options, 'context_window_overflow');
  }
}
