import type { StopReason, Usage } from '@skein/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

/** Chat Completions' finish reasons in the Converse spelling. */
const STOP: Record<string, StopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'content_filtered',
};

/**
 * The stop reason of a `finish_reason`. A message that called tools stops for `tool_use` even when
 * the server says `stop` (or something unknown), as some local servers do.
 */
export function toStopReason(finishReason: string, calledTools: boolean): StopReason {
  const reason = STOP[finishReason] ?? (calledTools ? 'tool_use' : 'end_turn');
  return calledTools && reason === 'end_turn' ? 'tool_use' : reason;
}

/** The usage of the chunk that carries one (`stream_options.include_usage`); cached prompt tokens counted apart. */
export function usageOf(chunk: ChatCompletionChunk): Usage | undefined {
  const u = chunk.usage;
  if (!u) return undefined;
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: u.prompt_tokens - cached,
    outputTokens: u.completion_tokens,
    totalTokens: u.total_tokens,
    ...(cached > 0 ? { cacheReadInputTokens: cached } : {}),
  };
}
