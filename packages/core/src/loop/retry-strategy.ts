import { ConfigurationError } from '../errors/configuration-errors.js';
import { ModelThrottledError, ModelTransientError, decisiveError } from '../errors/model-errors.js';

/** The longest server-requested wait honoured (the SDKs' bound); a longer retry-after fails the call. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Options of {@link ExponentialBackoffRetry}. */
export interface RetryStrategyOptions {
  /** Attempts in all, the first included. Default 6. */
  maxAttempts?: number;
  /** Delay before the second attempt, in ms. Default 4,000. */
  initialDelayMs?: number;
  /** Upper bound of one delay, in ms. Default 240,000. */
  maxDelayMs?: number;
  /** Randomize each delay within [delay/2, delay] to spread retries of many clients. Default true. */
  jitter?: boolean;
  /** Retry transient faults (5xx, a reset or refused connection, a cut stream) too. Default true. */
  retryTransient?: boolean;
  /** Delay before the second attempt after a transient fault, in ms (then doubling, up to `maxDelayMs`). Default 500. */
  transientInitialDelayMs?: number;
}

/** Decides whether and when a failed model call is tried again. */
export interface RetryStrategy {
  /** The delay in ms before attempt `attempt + 1`, or `undefined` to give up. `attempt` counts from 1. */
  nextDelay(error: unknown, attempt: number): number | undefined;
}

/**
 * Retries throttling (`ModelThrottledError`: 429, 529, overloaded) and transient faults
 * (`ModelTransientError`: 5xx, reset or refused connections, cut streams) with exponential backoff
 * and jitter, up to `maxAttempts` attempts in all. A retry-after given by the server is honoured as
 * asked, up to 60 s even when longer than `maxDelayMs`; a longer one gives up (the error carries it).
 * Everything else (validation, auth, context overflow) is not retried. A fallback chain's error is
 * judged by its last attempt's, and `attempt` counts every request to any model of the chain, so
 * `maxAttempts` bounds the requests of a call however many models the chain has.
 */
export class ExponentialBackoffRetry implements RetryStrategy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly jitter: boolean;
  readonly retryTransient: boolean;
  readonly transientInitialDelayMs: number;

  constructor(options: RetryStrategyOptions = {}) {
    this.maxAttempts = options.maxAttempts ?? 6;
    this.initialDelayMs = options.initialDelayMs ?? 4_000;
    this.maxDelayMs = options.maxDelayMs ?? 240_000;
    this.jitter = options.jitter ?? true;
    this.retryTransient = options.retryTransient ?? true;
    this.transientInitialDelayMs = options.transientInitialDelayMs ?? Math.min(500, this.maxDelayMs);
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) {
      throw new ConfigurationError(`retryStrategy.maxAttempts must be an integer >= 1 (got ${this.maxAttempts}).`);
    }
    if (typeof this.retryTransient !== 'boolean')
      throw new ConfigurationError(
        `retryStrategy.retryTransient must be a boolean (got ${String(this.retryTransient)}).`,
      );
    if (typeof this.jitter !== 'boolean')
      throw new ConfigurationError(`retryStrategy.jitter must be a boolean (got ${JSON.stringify(this.jitter)}).`);
    if (!(this.initialDelayMs >= 0) || !(this.maxDelayMs >= this.initialDelayMs)) {
      throw new ConfigurationError('retryStrategy delays must satisfy 0 <= initialDelayMs <= maxDelayMs.');
    }
  }

  nextDelay(failure: unknown, attempt: number): number | undefined {
    if (attempt >= this.maxAttempts) return undefined;
    const error = decisiveError(failure);
    let initial: number;
    if (ModelThrottledError.is(error)) {
      const asked = error.retryAfterMs;
      if (asked !== undefined && asked >= 0) return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
      initial = this.initialDelayMs;
    } else if (this.retryTransient && ModelTransientError.is(error)) {
      initial = this.transientInitialDelayMs;
    } else {
      return undefined;
    }
    const base = Math.min(initial * 2 ** (attempt - 1), this.maxDelayMs);
    return this.jitter ? base / 2 + Math.random() * (base / 2) : base;
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

let sharedRetry: RetryStrategy | undefined;
/** The default retry strategy: stateless, so one instance serves every agent (made on first use). */
function defaultRetryStrategy(): RetryStrategy {
  sharedRetry ??= new ExponentialBackoffRetry();
  return sharedRetry;
}

/** The strategy an agent uses for its `retryStrategy` option: none for `null`, the default when absent. */
export function resolveRetryStrategy(
  option: RetryStrategy | RetryStrategyOptions | null | undefined,
): RetryStrategy | undefined {
  if (option === null) return undefined;
  if (option === undefined) return defaultRetryStrategy();
  return 'nextDelay' in option ? option : new ExponentialBackoffRetry(option);
}
