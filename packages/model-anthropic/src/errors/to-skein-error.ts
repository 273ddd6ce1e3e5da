import { APIConnectionError, APIUserAbortError } from '@anthropic-ai/sdk';
import { CancelledError, SkeinError } from '@skein/core';
import type { StreamPhase } from '../stream/translate-stream.js';
import { fromApiError, isApiError } from './api-error.js';
import { fromConnectionFailure } from './connection-failure.js';

/**
 * Maps whatever the SDK threw to a core error with the SDK error as `cause`: an abort to
 * `CancelledError`, an answer of the API by its status and type (api-error.ts), a failure without
 * an answer by where it happened (connection-failure.ts). Core errors pass through.
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
  if (!isApiError(error) || error instanceof APIConnectionError || error.headers === undefined)
    return fromConnectionFailure(error, phase);
  return fromApiError(error);
}
