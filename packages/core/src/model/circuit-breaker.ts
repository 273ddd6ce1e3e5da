import type { Model } from './model.js';

/** When a model of a fallback chain is skipped: `failures` failures within `windowMs` skip it for `cooldownMs`. */
export interface CircuitBreakerOptions {
  /** Failures that open the breaker. Default 3. */
  failures?: number;
  /** The window the failures are counted in, in ms. Default 30,000. */
  windowMs?: number;
  /** How long an open breaker skips the model, in ms; then one request tries it again. Default 30,000. */
  cooldownMs?: number;
}

/** The breaker state of one model, shared by every fallback chain of the process that holds the same model object. */
interface BreakerState {
  /** Times of recent failures (ms), oldest first. */
  failures: number[];
  /** Open until this time (ms); 0 when closed. */
  openUntil: number;
  /** The failure that opened it. */
  lastError: unknown;
}

const states = new WeakMap<Model, BreakerState>();

/** The resolved options (every field set). */
export type BreakerSettings = Required<CircuitBreakerOptions>;

/** Defaults filled in. */
export function breakerSettings(options: CircuitBreakerOptions = {}): BreakerSettings {
  return {
    failures: options.failures ?? 3,
    windowMs: options.windowMs ?? 30_000,
    cooldownMs: options.cooldownMs ?? 30_000,
  };
}

/** The failure that keeps `model` skipped at `now`, or `undefined` when its breaker is closed (or half-open: cooled down). */
export function openBreaker(model: Model, now: number): { error: unknown } | undefined {
  const state = states.get(model);
  if (!state || state.openUntil <= now) return undefined;
  return { error: state.lastError };
}

/** Records a failure of `model` at `now`; opens its breaker when `failures` fell within `windowMs`. A failure after the cool-down reopens it at once. */
export function recordFailure(model: Model, now: number, error: unknown, settings: BreakerSettings): void {
  let state = states.get(model);
  if (!state) states.set(model, (state = { failures: [], openUntil: 0, lastError: undefined }));
  // The first failure soon after the cool-down (the trial request) reopens the breaker at once.
  const halfOpen = state.openUntil !== 0 && state.openUntil <= now && now < state.openUntil + settings.windowMs;
  state.failures.push(now);
  while (state.failures.length > 0 && (state.failures[0] as number) <= now - settings.windowMs) state.failures.shift();
  if (halfOpen || state.failures.length >= settings.failures) {
    state.openUntil = now + settings.cooldownMs;
    state.lastError = error;
    state.failures = [];
  }
}

/** Records an answer of `model`: its breaker closes and its failures are forgotten. */
export function recordSuccess(model: Model): void {
  const state = states.get(model);
  if (state && (state.failures.length > 0 || state.openUntil !== 0)) states.delete(model);
}
