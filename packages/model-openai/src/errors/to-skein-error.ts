import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { CancelledError, ModelTransientError, SkeinError } from '@skein/core';
import { fromApiError } from './api-error.js';

/** A failure without an answer: a stream cut in the middle, or a server that could not be reached. Both are retried. */
function fromConnectionFailure(error: unknown, baseURL: string, phase: 'request' | 'stream'): ModelTransientError {
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

/**
 * Maps what the SDK threw to a core error with it as `cause`: abort -> `CancelledError`; refused or
 * reset connections, a cut stream -> `ModelTransientError` (retried by the agent); an answer of the
 * server by its status or code (api-error.ts). Core errors pass through.
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
  if (error instanceof APIConnectionError || !(error instanceof APIError))
    return fromConnectionFailure(error, baseURL, phase);
  return fromApiError(error, baseURL);
}
