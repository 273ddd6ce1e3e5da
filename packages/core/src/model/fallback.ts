import { ConfigurationError } from '../errors/configuration-errors.js';
import { errorMessage } from '../errors/error-message.js';
import { ModelError, ModelFallbackError, type FallbackAttemptRecord } from '../errors/model-errors.js';
import {
  breakerSettings,
  openBreaker,
  recordFailure,
  recordSuccess,
  type BreakerSettings,
  type CircuitBreakerOptions,
} from './circuit-breaker.js';
import { classifyFailure } from './classify-failure.js';
import { checkModel, largestMaxTokens, type DelegatingModel } from './delegating-model.js';
import type { Model, ModelRequest, ModelStreamEvent } from './model.js';

/** Options of {@link fallback}. */
export interface FallbackOptions {
  /** Skip a model that failed `failures` times in `windowMs` for `cooldownMs` (per process). Default `{ failures: 3, windowMs: 30_000, cooldownMs: 30_000 }`; `false` turns it off. */
  circuitBreaker?: CircuitBreakerOptions | false;
  /** Which failures move on to the next model. Default: throttling and transient faults (`ModelThrottledError`, `ModelTransientError`, a 5xx/408/409/429 status). Cancellation, interrupts and budget stops never do. */
  shouldFallback?: (error: unknown) => boolean;
}

/** A model whose stream produced output: content (text, reasoning, tool input) went to the caller. */
function isOutput(event: ModelStreamEvent): boolean {
  return 'contentBlockDelta' in event || 'contentBlockStart' in event;
}

/** The error of a chain that ended without an answer: the only attempt's own error, else one naming the primary's and every attempt's. */
function chainFailure(attempts: FallbackAttemptRecord[], reason: string): unknown {
  const only = attempts.length === 1 ? attempts[0] : undefined;
  if (only && only.outcome === 'failed') return only.error;
  const [primary] = attempts as [FallbackAttemptRecord];
  const lines = attempts.map(
    (a, i) =>
      `${i + 1}. ${a.modelId} ${a.outcome === 'skipped' ? 'skipped (circuit open)' : `failed after ${Math.round(a.durationMs)} ms`} at ${a.at}: ${errorMessage(a.error)}`,
  );
  const last = attempts.at(-1)?.error;
  const status = ModelError.is(last) ? last.status : undefined;
  return new ModelFallbackError(
    `${reason}. The primary ${primary.modelId} failed with: ${errorMessage(primary.error)}. Attempts: ${lines.join('; ')}`,
    { cause: primary.error, attempts, ...(status !== undefined ? { status } : {}) },
  );
}

/** A chain of models tried in order; see {@link fallback}. */
class FallbackModel implements DelegatingModel {
  readonly modelId: string;
  readonly models: readonly Model[];
  readonly maxTokens: number | undefined;
  readonly cache: 'auto' | 'off';
  readonly #breaker: BreakerSettings | undefined;
  readonly #shouldFallback: ((error: unknown) => boolean) | undefined;

  constructor(models: readonly Model[], options: FallbackOptions) {
    this.models = [...models];
    this.modelId = (models[0] as Model).modelId;
    this.maxTokens = largestMaxTokens(models);
    this.cache = models.some((m) => m.cache === 'auto') ? 'auto' : 'off';
    this.#breaker = options.circuitBreaker === false ? undefined : breakerSettings(options.circuitBreaker);
    this.#shouldFallback = options.shouldFallback;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const { signal, observer } = request;
    const breaker = this.#breaker;
    const models = this.models;
    const now = Date.now();
    // A breaker never leaves the chain with nothing to try: when every model is open, all are tried.
    const open = breaker ? models.map((m) => openBreaker(m, now)) : undefined;
    const skipAny = open !== undefined && open.some((o) => o === undefined);
    const attempts: FallbackAttemptRecord[] = [];
    for (let i = 0; i < models.length; i++) {
      const model = models[i] as Model;
      const skipped = skipAny ? open[i] : undefined;
      if (skipped) {
        attempts.push({
          modelId: model.modelId,
          error: skipped.error,
          outcome: 'skipped',
          at: new Date(now).toISOString(),
          durationMs: 0,
        });
        observer?.attempt({ model, outcome: 'skipped', error: skipped.error, startedAt: now, durationMs: 0 });
        continue;
      }
      const startedAt = Date.now();
      const t0 = performance.now();
      let output = false;
      try {
        for await (const event of model.stream(request)) {
          if (!output && isOutput(event)) output = true;
          yield event;
        }
      } catch (error) {
        const kind = classifyFailure(error, signal);
        if (kind === 'pass') throw error;
        const durationMs = performance.now() - t0;
        // Only a fault of the model counts against it: a request that is wrong fails on any model.
        if (breaker && kind === 'next') recordFailure(model, Date.now(), error, breaker);
        attempts.push({
          modelId: model.modelId,
          error,
          outcome: 'failed',
          at: new Date(startedAt).toISOString(),
          durationMs,
        });
        observer?.attempt({ model, outcome: 'failed', error, startedAt, durationMs });
        const moveOn = this.#shouldFallback ? this.#shouldFallback(error) : kind === 'next';
        // Output already went to the caller: never restart silently on another model.
        if (output)
          throw chainFailure(
            attempts,
            `${model.modelId} failed after it had streamed output, so the chain does not restart it on another model (the caller's retry strategy may retry the call)`,
          );
        if (!moveOn)
          throw chainFailure(
            attempts,
            `The fallback chain stopped at ${model.modelId}: its error would fail on any model`,
          );
        continue;
      }
      if (breaker) recordSuccess(model);
      observer?.attempt({ model, outcome: 'answered', startedAt, durationMs: performance.now() - t0 });
      return;
    }
    throw chainFailure(attempts, `Every model of the fallback chain failed`);
  }
}

/**
 * A model that tries `primary`, then each of `others` in order, when a call fails with an error
 * another model can fix (429, 5xx, 529 overloaded, a reset connection, a stream cut before any
 * output). Errors of the request itself (4xx, context too long) end the chain; cancellation,
 * interrupts and budget stops pass through untouched; a stream that already produced output is
 * never restarted on another model. A model that failed `failures` times in `windowMs` is skipped
 * for `cooldownMs`. Usable anywhere a model is; its `modelId` is the primary's.
 * @example
 * const model = fallback([new AnthropicModel(), new BedrockModel()]);
 * const agent = new Agent({ model });
 */
export function fallback(models: readonly Model[], options: FallbackOptions = {}): Model {
  if (!Array.isArray(models))
    throw new ConfigurationError('fallback() takes an array of models: fallback([primary, ...others], options).');
  if (models.length === 0)
    throw new ConfigurationError(
      'fallback() got an empty chain: pass at least the primary model, fallback([primary, ...others]).',
    );
  models.forEach((m, i) => checkModel(m, `fallback(): models[${i}]`));
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('fallback(): options must be an object, e.g. { circuitBreaker: false }.');
  const breaker = options.circuitBreaker;
  if (breaker !== undefined && breaker !== false) {
    for (const key of ['failures', 'windowMs', 'cooldownMs'] as const) {
      const v = (breaker as Record<string, unknown>)[key];
      if (v !== undefined && !(typeof v === 'number' && v > 0 && Number.isFinite(v)))
        throw new ConfigurationError(`fallback(): circuitBreaker.${key} must be a positive number (got ${String(v)}).`);
    }
  }
  if (options.shouldFallback !== undefined && typeof options.shouldFallback !== 'function')
    throw new ConfigurationError('fallback(): shouldFallback must be a function (error) => boolean.');
  return new FallbackModel(models, options);
}
