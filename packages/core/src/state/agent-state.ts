import { copyJson, findNonJson, type JsonObject, type JsonValue } from '../types/json.js';

/** Throws the documented TypeError when `value` is not JSON. */
export function assertJson(value: unknown, what = 'Value'): asserts value is JsonValue {
  const bad = findNonJson(value);
  if (bad !== undefined) {
    throw new TypeError(
      `${what} is not JSON serializable: ${bad}. Only JSON-compatible types (string, number, boolean, null, array, object) are allowed.`,
    );
  }
}

/**
 * Key-value state of an agent, kept outside the conversation (the model never sees it). Values must
 * be JSON so that sessions can persist them; they are copied on `set` and on `get`.
 */
export class AgentState {
  #data: JsonObject;

  constructor(initial?: JsonObject) {
    if (initial === undefined) {
      this.#data = {};
      return;
    }
    assertJson(initial, 'Initial state');
    this.#data = copyJson(initial);
  }

  /** The value at `key` (a copy), or a copy of the whole state when no key is given. */
  get(): JsonObject;
  get(key: string): JsonValue | undefined;
  get(key?: string): JsonValue | undefined {
    if (key === undefined) return copyJson(this.#data);
    const value = this.#data[key];
    return value === undefined ? undefined : copyJson(value);
  }

  /** Stores a copy of `value`; throws a TypeError naming the offending type when it is not JSON. */
  set(key: string, value: unknown): void {
    if (typeof key !== 'string' || key.length === 0) throw new TypeError('State keys must be non-empty strings.');
    assertJson(value);
    this.#data[key] = copyJson(value);
  }

  /** Removes `key`. */
  delete(key: string): void {
    delete this.#data[key];
  }

  /** Replaces the whole state (used when restoring a session). */
  replace(data: JsonObject): void {
    assertJson(data, 'State');
    this.#data = copyJson(data);
  }

  /** The whole state as JSON (a copy). */
  toJSON(): JsonObject {
    return copyJson(this.#data);
  }
}
