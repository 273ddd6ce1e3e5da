import { ConfigurationError } from '../errors/configuration-errors.js';
import { ModelThrottledError } from '../errors/model-errors.js';

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
}

/** Decides whether and when a failed model call is tried again. */
export interface RetryStrategy {
  /** The delay in ms before attempt `attempt + 1`, or `undefined` to give up. `attempt` counts from 1. */
  nextDelay(error: unknown, attempt: number): number | undefined;
}

/**
 * Retries `ModelThrottledError` with exponential backoff and jitter. A retry-after given by the
 * server is honoured (capped at `maxDelayMs`).
 */
export class ExponentialBackoffRetry implements RetryStrategy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly jitter: boolean;

  constructor(options: RetryStrategyOptions = {}) {
    this.maxAttempts = options.maxAttempts ?? 6;
    this.initialDelayMs = options.initialDelayMs ?? 4_000;
    this.maxDelayMs = options.maxDelayMs ?? 240_000;
    this.jitter = options.jitter ?? true;
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) {
      throw new ConfigurationError(`retryStrategy.maxAttempts must be an integer >= 1 (got ${this.maxAttempts}).`);
    }
    if (!(this.initialDelayMs >= 0) || !(this.maxDelayMs >= this.initialDelayMs)) {
      throw new ConfigurationError('retryStrategy delays must satisfy 0 <= initialDelayMs <= maxDelayMs.');
    }
  }

  nextDelay(error: unknown, attempt: number): number | undefined {
    if (!ModelThrottledError.is(error) || attempt >= this.maxAttempts) return undefined;
    if (error.retryAfterMs !== undefined && error.retryAfterMs >= 0) return Math.min(error.retryAfterMs, this.maxDelayMs);
    const base = Math.min(this.initialDelayMs * 2 ** (attempt - 1), this.maxDelayMs);
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
