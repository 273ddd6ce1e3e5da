import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { ModelTransientError, type ModelStreamEvent, type Usage } from '@skein/core';
import { toStopReason } from './stop-reason.js';

type BlockKind = 'text' | 'toolUse' | 'reasoning';

const utf8 = new TextEncoder();

/** Token counts as they arrive: `message_start` first, then `message_delta`'s cumulative values. */
interface UsageState {
  input: number;
  output: number;
  cacheRead: number | null;
  cacheWrite: number | null;
}

function toUsage(u: UsageState): Usage {
  const usage: Usage = {
    inputTokens: u.input,
    outputTokens: u.output,
    totalTokens: u.input + u.output + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0),
  };
  if (u.cacheRead !== null) usage.cacheReadInputTokens = u.cacheRead;
  if (u.cacheWrite !== null) usage.cacheWriteInputTokens = u.cacheWrite;
  return usage;
}

const delta = (
  contentBlockIndex: number,
  d: Extract<ModelStreamEvent, { contentBlockDelta: unknown }>['contentBlockDelta']['delta'],
): ModelStreamEvent => ({
  contentBlockDelta: { contentBlockIndex, delta: d },
});

/** Where a failure happened: opening the request, or reading the stream. */
export type StreamPhase = 'request' | 'stream';

/**
 * Opens the stream with `open` and turns Anthropic's raw events into core stream events as each one
 * arrives. Text blocks get no `contentBlockStart`; tool input arrives as JSON text chunks; thinking,
 * signatures and redacted thinking become `reasoningContent` deltas; blocks of server tools are
 * skipped. `message_stop` yields `messageStop`, then `metadata` (usage, latency since the request
 * started). A stream that ends before `message_stop` is an error: the answer would be silently
 * short. Every failure goes through `mapError`. One generator does all of it, as each generator
 * layer costs time per event.
 */
export async function* translateStream(
  open: () => Promise<AsyncIterable<RawMessageStreamEvent>>,
  mapError: (error: unknown, phase: StreamPhase) => Error,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const startedAt = Date.now();
  let events: AsyncIterable<RawMessageStreamEvent>;
  try {
    events = await open();
  } catch (error) {
    throw mapError(error, 'request');
  }
  const kinds: (BlockKind | undefined)[] = [];
  const usage: UsageState = { input: 0, output: 0, cacheRead: null, cacheWrite: null };
  let stopReason: string | null = null;
  let messageId = '';
  let stopped = false;
  try {
    for await (const event of events) {
      if (stopped) continue; // drain to the end so the SDK releases the connection normally
      switch (event.type) {
        case 'content_block_delta': {
          const d = event.delta;
          const i = event.index;
          if (kinds[i] === undefined) break;
          if (d.type === 'text_delta') yield delta(i, { text: d.text });
          else if (d.type === 'input_json_delta') yield delta(i, { toolUse: { input: d.partial_json } });
          else if (d.type === 'thinking_delta') yield delta(i, { reasoningContent: { text: d.thinking } });
          else if (d.type === 'signature_delta') yield delta(i, { reasoningContent: { signature: d.signature } });
          break;
        }
        case 'content_block_start': {
          const block = event.content_block;
          const i = event.index;
          if (block.type === 'text') {
            kinds[i] = 'text';
            if (block.text) yield delta(i, { text: block.text });
          } else if (block.type === 'tool_use') {
            kinds[i] = 'toolUse';
            yield {
              contentBlockStart: {
                contentBlockIndex: i,
                start: { toolUse: { toolUseId: block.id, name: block.name } },
              },
            };
            const input: unknown = block.input;
            if (typeof input === 'object' && input !== null && Object.keys(input).length > 0) {
              yield delta(i, { toolUse: { input: JSON.stringify(input) } });
            }
          } else if (block.type === 'thinking') {
            kinds[i] = 'reasoning';
            if (block.thinking) yield delta(i, { reasoningContent: { text: block.thinking } });
            if (block.signature) yield delta(i, { reasoningContent: { signature: block.signature } });
          } else if (block.type === 'redacted_thinking') {
            kinds[i] = 'reasoning';
            yield delta(i, { reasoningContent: { redactedContent: utf8.encode(block.data) } });
          }
          break;
        }
        case 'content_block_stop':
          if (kinds[event.index] !== undefined) yield { contentBlockStop: { contentBlockIndex: event.index } };
          break;
        case 'message_start': {
          const u = event.message.usage;
          messageId = event.message.id;
          usage.input = u.input_tokens;
          usage.output = u.output_tokens;
          usage.cacheRead = u.cache_read_input_tokens ?? null;
          usage.cacheWrite = u.cache_creation_input_tokens ?? null;
          yield { messageStart: { role: 'assistant' } };
          break;
        }
        case 'message_delta': {
          const u = event.usage;
          if (event.delta.stop_reason) stopReason = event.delta.stop_reason;
          if (u.input_tokens != null) usage.input = u.input_tokens;
          if (u.output_tokens != null) usage.output = u.output_tokens;
          if (u.cache_read_input_tokens != null) usage.cacheRead = u.cache_read_input_tokens;
          if (u.cache_creation_input_tokens != null) usage.cacheWrite = u.cache_creation_input_tokens;
          break;
        }
        case 'message_stop':
          yield { messageStop: { stopReason: toStopReason(stopReason) } };
          yield { metadata: { usage: toUsage(usage), metrics: { latencyMs: Date.now() - startedAt } } };
          stopped = true;
          break;
      }
    }
  } catch (error) {
    throw mapError(error, 'stream');
  }
  if (stopped) return;
  throw mapError(
    new ModelTransientError(
      `The Anthropic stream ended before message_stop${messageId ? ` (message ${messageId})` : ''}: the answer is incomplete, probably a cut connection; the agent's retry strategy tries again.`,
    ),
    'stream',
  );
}
