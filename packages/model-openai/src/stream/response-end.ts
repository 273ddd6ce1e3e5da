/**
 * How a Responses stream ends: `response.completed` ends the message (`tool_use` when calls came,
 * else `end_turn`), `response.incomplete` by its reason (`max_output_tokens` -> `max_tokens`,
 * `content_filter` -> `content_filtered`); their usage becomes `metadata`. `response.failed` and
 * `error` events throw the SDK's `APIError` (mapped by to-skein-error).
 */
import { APIError } from 'openai';
import type { StopReason, Usage } from '@skein/core';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';

const INCOMPLETE: Record<string, StopReason> = { max_output_tokens: 'max_tokens', content_filter: 'content_filtered' };

/** The end of a message: why it stopped, and what it used. */
export interface End {
  stopReason: StopReason;
  usage: Usage;
}

type TerminalEvent = Extract<
  ResponseStreamEvent,
  { type: 'response.completed' | 'response.incomplete' | 'response.failed' | 'error' }
>;

function usageOf(response: Response): Usage {
  const u = response.usage;
  if (!u) return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const cached = u.input_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: u.input_tokens - cached,
    outputTokens: u.output_tokens,
    totalTokens: u.total_tokens,
    ...(cached > 0 ? { cacheReadInputTokens: cached } : {}),
  };
}

/** The failure a `response.failed` or `error` event reports, as the SDK's error for a body without a status. */
function failure(error: { code?: string | null; message?: string | null } | null | undefined): APIError {
  const message = error?.message || 'The response failed without a message';
  return new APIError(undefined, { code: error?.code ?? null, message, type: 'response_failed' }, message, undefined);
}

/** The end a terminal event says (`calls`: function calls the message made); throws for a failure. */
export function endOf(event: TerminalEvent, calls: number): End {
  switch (event.type) {
    case 'response.completed':
      return { stopReason: calls > 0 ? 'tool_use' : 'end_turn', usage: usageOf(event.response) };
    case 'response.incomplete':
      return {
        stopReason: INCOMPLETE[event.response.incomplete_details?.reason ?? ''] ?? 'max_tokens',
        usage: usageOf(event.response),
      };
    case 'response.failed':
      throw failure(event.response.error);
    case 'error':
      throw failure(event);
  }
}
