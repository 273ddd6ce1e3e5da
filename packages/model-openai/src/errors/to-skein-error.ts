import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import {
  CancelledError,
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
  SkeinError,
} from '@skein/core';

/** How servers say "the request does not fit the context window": OpenAI's code, and vLLM's, llama.cpp's, Ollama's, LM Studio's messages. */
const OVERFLOW = [
  /context_length_exceeded/i,
  /maximum context length/i,
  /context length|context window|context size/i,
  /exceeds? the (available )?context/i,
  /prompt is too long|input is too long|too many tokens/i,
  /n_ctx|exceed_context_size_error/i,
];

/** Codes of in-stream errors that a retry can fix. */
const TRANSIENT_CODES = new Set(['server_error', 'server_is_overloaded', 'slow_down', 'vector_store_timeout']);

/** The server's retry-after in ms: `retry-after-ms`, else `retry-after` as seconds or an HTTP date. */
function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms != null && ms.trim() !== '' && Number(ms) >= 0) return Number(ms);
  const after = headers?.get('retry-after');
  if (after == null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Maps what the SDK threw to a core error with it as `cause`: abort -> `CancelledError`; 429 ->
 * `ModelThrottledError` (retry-after); context-length errors -> `ContextWindowOverflowError`; 5xx,
 * refused or reset connections, a cut stream -> `ModelTransientError` (retried by the agent); 401/403
 * -> `ModelError` naming the variable to set; anything else -> `ModelError`.
 */
export function toSkeinError(
  error: unknown,
  signal: AbortSignal | undefined,
  baseURL: string,
  phase: 'request' | 'stream',
): SkeinError {
  if (signal?.aborted || error instanceof APIUserAbortError)
    return new CancelledError('The OpenAI request was cancelled through its AbortSignal.', {
      cause: signal?.reason ?? error,
    });
  if (SkeinError.is(error)) return error;
  if (error instanceof APIConnectionError || !(error instanceof APIError)) {
    const text = error instanceof Error ? error.message : String(error);
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    if (phase === 'stream')
      return new ModelTransientError(
        `The stream from ${baseURL} failed in the middle: ${text}${cause}. The answer is incomplete; the agent retries it.`,
        { cause: error },
      );
    return new ModelTransientError(
      `Could not reach the model server at ${baseURL}: ${text}${cause}. Is the server running there (for a local server: ollama serve, vllm serve, llama-server...)? The agent retries it.`,
      { cause: error },
    );
  }
  const status = error.status;
  const message = (error.message ?? '').replace(/\.+$/, '');
  const fields = {
    cause: error,
    ...(status !== undefined ? { status } : {}),
    ...(error.requestID ? { requestId: error.requestID } : {}),
  };
  const where = status === undefined ? 'in the middle of the stream' : `with status ${status}`;
  if (status === 429 && error.code !== 'insufficient_quota') {
    const wait = retryAfterMs(error.headers);
    return new ModelThrottledError(
      `${baseURL} rate limited the request (${where}): ${message}. The agent waits and tries again.`,
      { ...fields, ...(wait !== undefined ? { retryAfterMs: wait } : {}) },
    );
  }
  if (
    (status === undefined || status === 400 || status === 413) &&
    OVERFLOW.some((p) => p.test(`${error.code ?? ''} ${message}`))
  ) {
    return new ContextWindowOverflowError(
      `The request does not fit the model's context window (${where}): ${message}. Shorten the conversation or let the conversation manager reduce it.`,
      fields,
    );
  }
  if (status !== undefined && status >= 500)
    return new ModelTransientError(`${baseURL} failed ${where}: ${message}. The agent retries it.`, fields);
  // An error inside the stream (a Responses `error` / `response.failed` event, a Chat `data: {"error"}` chunk) has no status: its code says what it is.
  if (status === undefined && error.code === 'rate_limit_exceeded')
    return new ModelThrottledError(
      `${baseURL} rate limited the request (${where}): ${message}. The agent waits and tries again.`,
      fields,
    );
  if (status === undefined && (TRANSIENT_CODES.has(String(error.code)) || error.type === 'server_error')) {
    return new ModelTransientError(`${baseURL} failed ${where}: ${message}. The agent retries it.`, fields);
  }
  if (status === 401 || status === 403) {
    return new ModelError(
      `${baseURL} refused the credentials (${where}): ${message}. Set OPENAI_API_KEY (or the apiKey option) to a key this server accepts.`,
      fields,
    );
  }
  if (status === 404)
    return new ModelError(
      `${baseURL} answered ${where}: ${message}. Check modelId (is the model pulled or served there?) and baseURL (it usually ends in /v1).`,
      fields,
    );
  return new ModelError(`${baseURL} answered ${where}: ${message}.`, fields);
}
