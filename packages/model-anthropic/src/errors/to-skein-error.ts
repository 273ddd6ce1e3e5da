import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import {
  CancelledError,
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
  SkeinError,
} from '@skein/core';
import type { StreamPhase } from '../stream/translate-stream.js';

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

/** Error codes of a connection that failed (reset, refused, timed out): nothing the request did. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
]);

/** A connection fault: the SDK's connection errors, or an error (or its cause) with a network error code. */
function isNetworkFault(error: unknown): boolean {
  if (
    error instanceof APIConnectionError ||
    (error instanceof Error && /APIConnection(Timeout)?Error/.test(error.name))
  )
    return true;
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  }
  return false;
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

/** An SDK API error, also from another copy of the SDK (a user-built client). */
function isApiError(error: unknown): error is APIError {
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

/** The server's message, without a trailing period (skein's messages go on after it). */
function apiMessage(error: APIError): string {
  return (error.apiMessage ?? error.message).replace(/\.+$/, '');
}

/**
 * Maps whatever the SDK threw to a core error with the SDK error as `cause`: rate limits and
 * overload (status or mid-stream `event: error`) to `ModelThrottledError`, context overflow to
 * `ContextWindowOverflowError`, an abort to `CancelledError`, anything else to `ModelError`.
 */
export function toSkeinError(error: unknown, signal: AbortSignal | undefined, phase: StreamPhase): SkeinError {
  if (
    signal?.aborted ||
    error instanceof APIUserAbortError ||
    (error instanceof Error && error.name === 'APIUserAbortError')
  ) {
    return new CancelledError('The Anthropic request was cancelled through its AbortSignal.', {
      cause: signal?.reason ?? error,
    });
  }
  if (SkeinError.is(error)) return error;
  if (!isApiError(error) || error instanceof APIConnectionError || error.headers === undefined) {
    const text = error instanceof Error ? error.message : String(error);
    const reason = error instanceof Error && error.cause instanceof Error ? `${text} (${error.cause.message})` : text;
    if (phase !== 'request')
      return new ModelTransientError(
        `The Anthropic stream failed in the middle: ${reason}. The answer is incomplete; the agent's retry strategy tries again.`,
        { cause: error },
      );
    if (isNetworkFault(error))
      return new ModelTransientError(
        `The Anthropic request failed on the network: ${reason}. The agent's retry strategy tries again.`,
        { cause: error },
      );
    return new ModelError(
      `The Anthropic request failed: ${reason}. Check the client configuration (the API key from ANTHROPIC_API_KEY or clientOptions.apiKey, baseURL) and the network.`,
      { cause: error },
    );
  }
  const status = error.status;
  const fields = {
    cause: error,
    ...(status !== undefined && { status }),
    ...(error.requestID != null && { requestId: error.requestID }),
  };
  const where = status === undefined ? 'in the middle of the stream' : `with status ${status}`;
  const type = error.type ?? '';
  if (status === 429 || status === 529 || THROTTLE_TYPES.has(type)) {
    const wait = retryAfterMs(error.headers);
    const what = status === 429 || type === 'rate_limit_error' ? 'rate limited the request' : 'is overloaded';
    return new ModelThrottledError(
      `Anthropic ${what} (${where}): ${apiMessage(error)}. The agent's retry strategy waits and tries again.`,
      {
        ...fields,
        ...(wait !== undefined && { retryAfterMs: wait }),
      },
    );
  }
  if (
    (status === undefined || status === 400 || status === 413) &&
    OVERFLOW_PATTERNS.some((p) => p.test(apiMessage(error)) || p.test(type))
  ) {
    return new ContextWindowOverflowError(
      `The request does not fit the model's context window (${where}): ${apiMessage(error)}. Shorten the conversation or let the conversation manager reduce it.`,
      fields,
    );
  }
  if ((status !== undefined && status >= 500) || (status === undefined && TRANSIENT_TYPES.has(type))) {
    return new ModelTransientError(
      `Anthropic failed ${where}${type ? ` (${type})` : ''}: ${apiMessage(error)}. The agent's retry strategy tries again.`,
      fields,
    );
  }
  return new ModelError(`Anthropic answered ${where}${type ? ` (${type})` : ''}: ${apiMessage(error)}.`, fields);
}
