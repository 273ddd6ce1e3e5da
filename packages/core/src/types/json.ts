/** A value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** The JSON Schema of a tool's input, as sent to a model. */
export type JsonSchema = { [key: string]: unknown };

/**
 * Returns the name of the first value inside `value` that is not JSON, or `undefined` when all of it is.
 * Names are those users see in the error: `function`, `symbol`, `bigint`, `undefined`, `Date`, `Map`, `NaN`...
 */
export function findNonJson(value: unknown, seen: Set<object> = new Set()): string | undefined {
  if (value === null) return undefined;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : String(value);
    case 'object':
      break;
    default:
      return typeof value;
  }
  const obj = value as object;
  if (seen.has(obj)) return 'circular reference';
  seen.add(obj);
  try {
    if (Array.isArray(obj)) {
      for (const item of obj) {
        const bad = findNonJson(item, seen);
        if (bad !== undefined) return bad;
      }
      return undefined;
    }
    const proto = Object.getPrototypeOf(obj) as object | null;
    if (proto !== Object.prototype && proto !== null) return obj.constructor?.name ?? 'object';
    for (const key of Object.keys(obj)) {
      const bad = findNonJson((obj as Record<string, unknown>)[key], seen);
      if (bad !== undefined) return bad;
    }
    return undefined;
  } finally {
    seen.delete(obj);
  }
}

/** Deep copy of a JSON value (faster than a JSON round trip for small values). */
export function copyJson<T extends JsonValue>(value: T): T {
  return structuredClone(value);
}
