import { ConfigurationError } from '../errors/configuration-errors.js';
import type { Model } from './model.js';

/** A model that answers through other models (`fallback`, `route`): budgets price it by its members. */
export interface DelegatingModel extends Model {
  /** The models it may call. */
  readonly models: readonly Model[];
}

/** True when `value` delegates to other models. */
export function isDelegating(value: Model): value is DelegatingModel {
  return Array.isArray((value as { models?: unknown }).models);
}

/** True when `value` looks like a skein Model: an object with a string `modelId` and a `stream` method. */
function isModel(value: unknown): value is Model {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { modelId?: unknown }).modelId === 'string' &&
    typeof (value as { stream?: unknown }).stream === 'function'
  );
}

/** Describes a value that is not a model, for error messages. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value !== 'object') return `${typeof value} ${String(value)}`;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== 'Object'
    ? `a ${name} without modelId and stream()`
    : 'an object without modelId and stream()';
}

/** Throws a `ConfigurationError` naming `where` when `value` is not a skein Model. */
export function checkModel(value: unknown, where: string): asserts value is Model {
  if (isModel(value)) return;
  throw new ConfigurationError(
    `${where} is not a skein Model (got ${describe(value)}). Pass a model object such as new AnthropicModel({...}) or new BedrockModel({...}), not a model id.`,
  );
}

/** The largest `maxTokens` of `models` that say theirs (what a call through any of them may produce). */
export function largestMaxTokens(models: readonly Model[]): number | undefined {
  let max: number | undefined;
  for (const m of models) {
    const own = (m as { maxTokens?: unknown }).maxTokens;
    if (typeof own === 'number' && own > 0 && (max === undefined || own > max)) max = own;
  }
  return max;
}
