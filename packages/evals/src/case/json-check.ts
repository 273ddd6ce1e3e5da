/** A cheap check that a value is JSON (zod's `z.json()` is a recursive union, slow on every case of a large set). */
import type { ZodNamespace } from '../scorers/zod-namespace.js';

/** True for null, booleans, finite numbers, strings, and arrays and plain objects of them. */
export function isJson(value: unknown, depth = 0): boolean {
  if (depth > 100) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isJson(v, depth + 1));
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((v) => isJson(v, depth + 1));
}

/** A zod schema for any JSON value. */
export const jsonValue = (z: ZodNamespace) => z.custom<unknown>((v) => isJson(v), 'expected a JSON value');

/** A zod schema for a JSON object. */
export const jsonObject = (z: ZodNamespace) =>
  z.custom<Record<string, unknown>>(
    (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && isJson(v),
    'expected an object of JSON values',
  );
