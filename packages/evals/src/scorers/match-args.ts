/** Compares a tool call's arguments with what was expected: exactly, partially, or by a schema (pure). */
import type { JsonObject, JsonValue } from '@skein/core';
import type { SchemaLike } from '../case/eval-case.js';

/** `undefined` when they match, else why not (`amountEur: expected 60, got 12`). */
export type Mismatch = string | undefined;

export function isSchemaLike(value: unknown): value is SchemaLike {
  return (
    typeof value === 'object' && value !== null && typeof (value as { safeParse?: unknown }).safeParse === 'function'
  );
}

const json = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (path: string, key: string | number): string => (path ? `${path}.${key}` : String(key));

/** Deep equality of JSON values; the first difference, or `undefined`. */
export function exactMismatch(actual: unknown, expected: unknown, path = ''): Mismatch {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      return `${path || 'value'}: expected ${json(expected)}, got ${json(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const m = exactMismatch(actual[i], expected[i], at(path, i));
      if (m) return m;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${path || 'value'}: expected ${json(expected)}, got ${json(actual)}`;
    const extra = Object.keys(actual).filter((k) => !(k in expected));
    if (extra.length > 0) return `${path || 'value'}: unexpected ${extra.map((k) => at(path, k)).join(', ')}`;
    for (const [k, v] of Object.entries(expected)) {
      const m = exactMismatch(actual[k], v, at(path, k));
      if (m) return m;
    }
    return undefined;
  }
  return actual === expected ? undefined : `${path || 'value'}: expected ${json(expected)}, got ${json(actual)}`;
}

/** The expected keys match (objects compared the same way, deeply); other keys may be there. Arrays and values compare exactly. */
export function partialMismatch(actual: unknown, expected: unknown, path = ''): Mismatch {
  if (!isObject(expected)) return exactMismatch(actual, expected, path);
  if (!isObject(actual)) return `${path || 'value'}: expected an object with ${json(expected)}, got ${json(actual)}`;
  for (const [k, v] of Object.entries(expected)) {
    if (!(k in actual)) return `${at(path, k)}: missing (expected ${json(v)})`;
    const m = partialMismatch(actual[k], v, at(path, k));
    if (m) return m;
  }
  return undefined;
}

/** Validates with a zod-like schema; the issues, joined. */
export function schemaMismatch(actual: unknown, schema: SchemaLike): Mismatch {
  const parsed = schema.safeParse(actual);
  if (parsed.success) return undefined;
  const issues = parsed.error?.issues ?? [];
  return (
    issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ') ||
    'does not match the schema'
  );
}

/** Compares `actual` arguments with `expected` (a schema, or a JSON object compared by `mode`). */
export function argsMismatch(
  actual: JsonValue,
  expected: JsonObject | SchemaLike,
  mode: 'exact' | 'partial',
): Mismatch {
  if (isSchemaLike(expected)) return schemaMismatch(actual, expected);
  return mode === 'exact' ? exactMismatch(actual, expected) : partialMismatch(actual, expected);
}
