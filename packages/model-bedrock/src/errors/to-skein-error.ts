import {
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
  SkeinError,
} from '@skein/core';

/** Messages Bedrock (and the models behind it) use when the input does not fit the context window. */
const OVERFLOW = [
  /input is too long/i,
  /too many total text bytes/i,
  /prompt is too long/i,
  /input length and `?max_tokens`? exceed context limit/i,
  /exceeds? (the )?(model'?s? )?(maximum )?context (window|length|limit)/i,
  /context window (is )?exceeded|model_context_window_exceeded/i,
  /maximum context length/i,
];

/** Exception names that mean "slow down and try again". */
const THROTTLING = new Set(['ThrottlingException', 'ModelNotReadyException', 'TooManyRequestsException']);

/** Exception names of server-side or network faults: the same request may succeed when tried again. */
const TRANSIENT = new Set([
  'ServiceUnavailableException',
  'InternalServerException',
  'ModelStreamErrorException',
  'ModelTimeoutException',
  'TimeoutError',
  'RequestTimeout',
]);

/** Error codes of a connection that failed (reset, refused, timed out). */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_HTTP2_STREAM_ERROR',
  'ERR_HTTP2_SESSION_ERROR',
  'ERR_HTTP2_GOAWAY_SESSION',
  'ERR_HTTP2_STREAM_CANCEL',
]);

function isNetworkFault(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    typeof e === 'object' && e !== null && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  }
  return false;
}

/** What the model knew about the response when the error happened. */
export interface ErrorContext {
  /** Request id of the stream's response, for exceptions thrown mid-stream (they carry none). */
  requestId?: string | undefined;
  /** HTTP status of the stream's response. */
  status?: number | undefined;
}

interface SdkErrorShape {
  name?: unknown;
  message?: unknown;
  originalStatusCode?: unknown;
  originalMessage?: unknown;
  $metadata?: { httpStatusCode?: unknown; requestId?: unknown };
  $response?: { statusCode?: unknown; headers?: Record<string, unknown> };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The server's retry-after in ms (`retry-after-ms`, or `retry-after` in seconds or as a date), when it sent one. */
function retryAfterMs(headers: Record<string, unknown> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(str(headers['retry-after-ms']));
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = str(headers['retry-after']);
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1_000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

function isThrottling(
  name: string,
  status: number | undefined,
  text: string,
  originalStatus: number | undefined,
): boolean {
  if (THROTTLING.has(name) || status === 429) return true;
  if (name === 'ModelStreamErrorException')
    return originalStatus === 429 || /throttl|too many requests|rate limit|overloaded/i.test(text);
  return false;
}

/**
 * Maps an error of the Bedrock SDK (before or inside the stream) to a core error with the SDK error
 * as `cause`: throttling -> `ModelThrottledError`, context overflow -> `ContextWindowOverflowError`,
 * the rest -> `ModelError` with the HTTP status and request id.
 */
export function toCoreError(error: unknown, modelId: string, context: ErrorContext = {}): SkeinError {
  if (SkeinError.is(error)) return error;
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape;
  const name = str(e.name) ?? 'Error';
  const message = str(e.message) ?? String(error);
  const originalMessage = str(e.originalMessage);
  const text = (originalMessage ? `${message} (${originalMessage})` : message).replace(/[.\s]+$/, '');
  const status =
    num(e.$metadata?.httpStatusCode) ?? num(e.$response?.statusCode) ?? num(e.originalStatusCode) ?? context.status;
  const requestId = str(e.$metadata?.requestId) ?? context.requestId;
  const fields: { cause: unknown; status?: number; requestId?: string } = { cause: error };
  if (status !== undefined) fields.status = status;
  if (requestId !== undefined) fields.requestId = requestId;
  const where = `${name}${status === undefined ? '' : `, HTTP ${status}`}${requestId === undefined ? '' : `, request id ${requestId}`}`;

  if (
    isThrottling(
      name,
      num(e.$metadata?.httpStatusCode) ?? num(e.$response?.statusCode),
      text,
      num(e.originalStatusCode),
    )
  ) {
    const after = retryAfterMs(e.$response?.headers);
    return new ModelThrottledError(
      `Bedrock throttled the call to ${modelId} (${where}): ${text}. The agent loop retries with backoff; raise your Bedrock quota if this persists.`,
      after === undefined ? fields : { ...fields, retryAfterMs: after },
    );
  }
  if (OVERFLOW.some((re) => re.test(text))) {
    return new ContextWindowOverflowError(
      `The input does not fit the context window of ${modelId} (${where}): ${text}. Shorten the conversation (a conversation manager does this) or use a model with a larger window.`,
      fields,
    );
  }
  const httpStatus = num(e.$metadata?.httpStatusCode) ?? num(e.$response?.statusCode);
  if (TRANSIENT.has(name) || (httpStatus !== undefined && httpStatus >= 500) || isNetworkFault(error)) {
    return new ModelTransientError(
      `Bedrock call to ${modelId} failed on the server or the network (${where}): ${text}. The agent loop retries with backoff.`,
      fields,
    );
  }
  let hint = '';
  if (name === 'CredentialsProviderError')
    hint = ' Configure AWS credentials (environment, ~/.aws, SSO, instance role) or pass clientConfig.credentials.';
  else if (name === 'AccessDeniedException' || name === 'UnrecognizedClientException')
    hint = ' Check the AWS credentials and that model access is enabled in the Bedrock console.';
  else if (name === 'ResourceNotFoundException' || /model identifier is invalid|on-demand throughput/i.test(text))
    hint = ' Check modelId (an inference profile id like us.anthropic... may be needed) and region.';
  return new ModelError(`Bedrock call to ${modelId} failed (${where}): ${text}.${hint}`, fields);
}
