import { APIError } from '@anthropic-ai/sdk';
import {
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
  type SkeinError,
} from '@skein/core';

/** Messages of 400/413 answers that mean "the request does not fit the context window". */
const OVERFLOW_PATTERNS = [
  /prompt is too long/i,
  /input is too long/i,
  /input length and `?max_tokens`? exceed context limit/i,
  /too many total text bytes/i,
  /exceeds? (the )?(model'?s? )?(maximum )?context (window|length|limit)/i,
  /context window/i,
  /request_too_large|request exceeds the maximum (allowed number of bytes|size)/i,
];

/** Error types that mean "slow down": the core's retry strategy retries these. */
const THROTTLE_TYPES = new Set(['rate_limit_error', 'overloaded_error']);

/** Error types of a mid-stream `event: error` that mean a server-side fault worth retrying. */
const TRANSIENT_TYPES = new Set(['api_error', 'timeout_error']);

/** An SDK API error, also from another copy of the SDK (a user-built client). */
export function isApiError(error: unknown): error is APIError {
  if (error instanceof APIError) return true;
  return (
    typeof error === 'object' &&
    error !== null &&
    'requestID' in error &&
    'headers' in error &&
    'status' in error &&
    error instanceof Error
  );
}

/** The server's retry-after in ms: `retry-after-ms`, else `retry-after` as seconds or an HTTP date. */
function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms != null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const after = headers?.get('retry-after');
  if (after == null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The server's message, without a trailing period (skein's messages go on after it). */
function apiMessage(error: APIError): string {
  return (error.apiMessage ?? error.message).replace(/\.+$/, '');
}

/**
 * An answer of the API (a status, or a mid-stream `event: error` without one) as a core error:
 * 429/529 and throttle types -> `ModelThrottledError` (with the server's retry-after), a 400/413
 * about the context window -> `ContextWindowOverflowError`, 5xx and transient types ->
 * `ModelTransientError`, anything else -> `ModelError`.
 */
export function fromApiError(error: APIError): SkeinError {
  const status = error.status;
  const fields = {
    cause: error,
    ...(status !== undefined && { status }),
    ...(error.requestID != null && { requestId: error.requestID }),
  };
  const where = status === undefined ? 'in the middle of the stream' : `with status ${status}`;
  const type = error.type ?? '';
  const message = apiMessage(error);
  if (status === 429 || status === 529 || THROTTLE_TYPES.has(type)) {
    const wait = retryAfterMs(error.headers);
    const what = status === 429 || type === 'rate_limit_error' ? 'rate limited the request' : 'is overloaded';
    return new ModelThrottledError(
      `Anthropic ${what} (${where}): ${message}. The agent's retry strategy waits and tries again.`,
      { ...fields, ...(wait !== undefined && { retryAfterMs: wait }) },
    );
  }
  if (
    (status === undefined || status === 400 || status === 413) &&
    OVERFLOW_PATTERNS.some((p) => p.test(message) || p.test(type))
  ) {
    return new ContextWindowOverflowError(
      `The request does not fit the model's context window (${where}): ${message}. Shorten the conversation or let the conversation manager reduce it.`,
      fields,
    );
  }
  const typed = type ? ` (${type})` : '';
  if ((status !== undefined && status >= 500) || (status === undefined && TRANSIENT_TYPES.has(type))) {
    return new ModelTransientError(
      `Anthropic failed ${where}${typed}: ${message}. The agent's retry strategy tries again.`,
      fields,
    );
  }
  return new ModelError(`Anthropic answered ${where}${typed}: ${message}.`, fields);
}
