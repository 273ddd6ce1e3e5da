import { APIConnectionError } from '@anthropic-ai/sdk';
import { ModelError, ModelTransientError, type SkeinError } from '@skein/core';
import type { StreamPhase } from '../stream/translate-stream.js';

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

/**
 * A failure without an answer of the API as a core error: a stream cut in the middle or a network
 * fault -> `ModelTransientError` (retried), anything else before the request got an answer (a
 * missing API key, a bad baseURL) -> `ModelError`.
 */
export function fromConnectionFailure(error: unknown, phase: StreamPhase): SkeinError {
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
