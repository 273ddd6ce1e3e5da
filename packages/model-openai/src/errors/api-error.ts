import type { APIError } from 'openai';
import {
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
  type SkeinError,
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

/** What every message about one answer says: who answered, how, what. */
interface Answer {
  readonly baseURL: string;
  /** `with status 400`, or `in the middle of the stream`. */
  readonly where: string;
  /** The server's message without a trailing period. */
  readonly message: string;
  readonly fields: { cause: unknown; status?: number; requestId?: string };
}

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

function throttled(a: Answer, wait?: number): ModelThrottledError {
  return new ModelThrottledError(
    `${a.baseURL} rate limited the request (${a.where}): ${a.message}. The agent waits and tries again.`,
    wait === undefined ? a.fields : { ...a.fields, retryAfterMs: wait },
  );
}

function transient(a: Answer): ModelTransientError {
  return new ModelTransientError(`${a.baseURL} failed ${a.where}: ${a.message}. The agent retries it.`, a.fields);
}

function answered(a: Answer): ModelError {
  return new ModelError(`${a.baseURL} answered ${a.where}: ${a.message}.`, a.fields);
}

/** An answer with a status (other than a rate limit or an overflow): 5xx, refused credentials, not found. */
function byStatus(a: Answer, status: number): SkeinError {
  if (status >= 500) return transient(a);
  if (status === 401 || status === 403) {
    return new ModelError(
      `${a.baseURL} refused the credentials (${a.where}): ${a.message}. Set OPENAI_API_KEY (or the apiKey option) to a key this server accepts.`,
      a.fields,
    );
  }
  if (status === 404)
    return new ModelError(
      `${a.baseURL} answered ${a.where}: ${a.message}. Check modelId (is the model pulled or served there?) and baseURL (it usually ends in /v1).`,
      a.fields,
    );
  return answered(a);
}

/**
 * An error inside the stream (a Responses `error` / `response.failed` event, a Chat `data: {"error"}`
 * chunk) has no status: its code says what it is.
 */
function byCode(a: Answer, error: APIError): SkeinError {
  if (error.code === 'rate_limit_exceeded') return throttled(a);
  if (TRANSIENT_CODES.has(String(error.code)) || error.type === 'server_error') return transient(a);
  return answered(a);
}

/**
 * An answer of the server as a core error: 429 -> `ModelThrottledError` (with its retry-after;
 * `insufficient_quota` is no rate limit), context-length errors -> `ContextWindowOverflowError`,
 * then by status (5xx -> `ModelTransientError`, 401/403/404 -> `ModelError` with what to check) or,
 * inside the stream, by code.
 */
export function fromApiError(error: APIError, baseURL: string): SkeinError {
  const status = error.status;
  const answer: Answer = {
    baseURL,
    where: status === undefined ? 'in the middle of the stream' : `with status ${status}`,
    message: (error.message ?? '').replace(/\.+$/, ''),
    fields: {
      cause: error,
      ...(status !== undefined ? { status } : {}),
      ...(error.requestID ? { requestId: error.requestID } : {}),
    },
  };
  if (status === 429 && error.code !== 'insufficient_quota') return throttled(answer, retryAfterMs(error.headers));
  if (
    (status === undefined || status === 400 || status === 413) &&
    OVERFLOW.some((p) => p.test(`${error.code ?? ''} ${answer.message}`))
  ) {
    return new ContextWindowOverflowError(
      `The request does not fit the model's context window (${answer.where}): ${answer.message}. Shorten the conversation or let the conversation manager reduce it.`,
      answer.fields,
    );
  }
  return status === undefined ? byCode(answer, error) : byStatus(answer, status);
}
