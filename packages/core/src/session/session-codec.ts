import { SessionCorruptError, SessionNotFoundError } from '../errors/session-errors.js';

/**
 * JSON encoding of session data. Bytes are written the way Strands Agents writes them,
 * `{ "__bytes_encoded__": true, "data": "<base64>" }`, so sessions open in both.
 */

/** True when `test` holds for `value` or for an object or array anywhere inside it. */
function holdsObject(value: unknown, test: (value: object) => boolean): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (test(value)) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsObject(item, test)) return true;
    return false;
  }
  for (const key in value) if (holdsObject((value as Record<string, unknown>)[key], test)) return true;
  return false;
}

const isBytes = (value: object): boolean => value instanceof Uint8Array;

/** An encoded `Uint8Array` as stored: `{ "__bytes_encoded__": true, "data": "<base64>" }`. */
function isEncodedBytes(value: object): value is { data: string } {
  const v = value as Record<string, unknown>;
  return v['__bytes_encoded__'] === true && typeof v['data'] === 'string';
}

/** True when `value` holds a `Uint8Array` somewhere (an image, a document): only then must it be encoded. */
export function holdsBytes(value: unknown): boolean {
  return holdsObject(value, isBytes);
}

/** `value` with every `Uint8Array` encoded: a copy when it holds bytes, `value` itself when not. */
export function withBytesEncoded(value: unknown): unknown {
  return holdsBytes(value) ? encodeBytes(value) : value;
}

/** `value` as stored JSON text, bytes encoded (copied only when it holds bytes). */
export function encodedJson(value: unknown, indent?: number): string {
  return JSON.stringify(withBytesEncoded(value), null, indent);
}

/** Replaces every `Uint8Array` inside `value` by its encoded object (returns a new value). */
export function encodeBytes(value: unknown): unknown {
  if (value instanceof Uint8Array)
    return {
      __bytes_encoded__: true,
      data: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'),
    };
  if (Array.isArray(value)) return value.map(encodeBytes);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = encodeBytes(v);
    return out;
  }
  return value;
}

/** Turns encoded bytes back into `Uint8Array`s (returns a new value). */
export function decodeBytes(value: unknown): unknown {
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(decodeBytes);
  if (value !== null && typeof value === 'object') {
    if (isEncodedBytes(value)) return new Uint8Array(Buffer.from(value.data, 'base64'));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = decodeBytes(v);
    return out;
  }
  return value;
}

/** Serializes session data for storage (bytes encoded, 2-space indent like Strands). */
export function serializeSessionData(value: unknown): string {
  return encodedJson(value, 2);
}

/** Parses stored session data; corrupt JSON is a `SessionCorruptError` naming `location`. */
export function parseSessionData<T>(text: string, location: string): T {
  try {
    const value: unknown = JSON.parse(text);
    // The walk also refuses a value nested too deep to handle (a RangeError, reported as corrupt).
    return (holdsObject(value, isEncodedBytes) ? decodeBytes(value) : value) as T;
  } catch (error) {
    throw new SessionCorruptError(
      `Session data at ${location} is not valid JSON (${(error as Error).message}); fix or remove that file.`,
      {
        location,
        cause: error,
      },
    );
  }
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.@=+-]{0,199}$/;

/**
 * Checks a session, agent, orchestrator or node id before it becomes part of a path or key: letters,
 * digits and `_ . @ = + -`, not starting with a dot, no `..`, at most 200 characters.
 */
export function checkSessionId(id: unknown, what: string): asserts id is string {
  if (typeof id !== 'string' || !SAFE_ID.test(id) || id.includes('..')) {
    throw new SessionNotFoundError(
      `Invalid ${what} ${shownId(id)}: use 1-200 characters from A-Z a-z 0-9 _ . @ = + - starting with a letter or digit, without "..", so it cannot leave the session storage.`,
    );
  }
}

/** An id as an error message shows it: JSON, cut to 80 characters (an id of 10 kB stays out of logs). */
function shownId(id: unknown): string {
  const text = String(JSON.stringify(id) ?? typeof id);
  return text.length > 80 ? `${text.slice(0, 77)}... (${text.length} characters)` : text;
}
