import type { RawMessageDeltaEvent, RawMessageStartEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ModelStreamEvent, Usage } from '@skein/core';
import { toStopReason } from './stop-reason.js';

/**
 * What one message's stream says about the message as a whole: its id, the stop reason, and the
 * token counts as they arrive (`message_start` first, then `message_delta`'s cumulative values).
 */
export class MessageState {
  readonly #startedAt = Date.now();
  id = '';
  #stopReason: string | null = null;
  #input = 0;
  #output = 0;
  #cacheRead: number | null = null;
  #cacheWrite: number | null = null;

  /** Takes the id and first counts of a `message_start`. */
  start(message: RawMessageStartEvent['message']): void {
    const u = message.usage;
    this.id = message.id;
    this.#input = u.input_tokens;
    this.#output = u.output_tokens;
    this.#cacheRead = u.cache_read_input_tokens ?? null;
    this.#cacheWrite = u.cache_creation_input_tokens ?? null;
  }

  /** Takes the stop reason and the counts a `message_delta` sends. */
  update(event: RawMessageDeltaEvent): void {
    const u = event.usage;
    if (event.delta.stop_reason) this.#stopReason = event.delta.stop_reason;
    if (u.input_tokens != null) this.#input = u.input_tokens;
    if (u.output_tokens != null) this.#output = u.output_tokens;
    if (u.cache_read_input_tokens != null) this.#cacheRead = u.cache_read_input_tokens;
    if (u.cache_creation_input_tokens != null) this.#cacheWrite = u.cache_creation_input_tokens;
  }

  /** The `messageStop` event of the stop reason received. */
  stopEvent(): ModelStreamEvent {
    return { messageStop: { stopReason: toStopReason(this.#stopReason) } };
  }

  /** The `metadata` event: usage, and the latency since the request started. */
  metadataEvent(): ModelStreamEvent {
    return { metadata: { usage: this.#usage(), metrics: { latencyMs: Date.now() - this.#startedAt } } };
  }

  #usage(): Usage {
    const cacheRead = this.#cacheRead;
    const cacheWrite = this.#cacheWrite;
    const usage: Usage = {
      inputTokens: this.#input,
      outputTokens: this.#output,
      totalTokens: this.#input + this.#output + (cacheRead ?? 0) + (cacheWrite ?? 0),
    };
    if (cacheRead !== null) usage.cacheReadInputTokens = cacheRead;
    if (cacheWrite !== null) usage.cacheWriteInputTokens = cacheWrite;
    return usage;
  }
}
