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

/**
 * Deep copy of a JSON value: written out for the usual small values (an agent's state is copied on
 * every get, and `structuredClone` serializes even an empty object), `structuredClone` below
 * `SHALLOW` levels of nesting.
 */
export function copyJson<T extends JsonValue>(value: T): T {
  return copyAt(value, 0) as T;
}

/** Levels copied by hand before `structuredClone` takes over (no deep recursion on the JS stack). */
const SHALLOW = 16;

function copyAt(value: JsonValue, depth: number): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= SHALLOW) return structuredClone(value);
  if (Array.isArray(value)) {
    const items: JsonValue[] = new Array<JsonValue>(value.length);
    for (let i = 0; i < value.length; i++) items[i] = copyAt(value[i] as JsonValue, depth + 1);
    return items;
  }
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const copied = copyAt(value[key] as JsonValue, depth + 1);
    // An own `__proto__` key (JSON.parse makes them) stays a key, as structuredClone keeps it.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
    else out[key] = copied;
  }
  return out;
}
