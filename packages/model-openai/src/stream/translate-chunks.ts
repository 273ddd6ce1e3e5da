/**
 * Chat Completions chunks as skein stream events. Blocks are numbered in order of appearance
 * (chat-blocks.ts): reasoning text (`reasoning_content`, or `reasoning` as some routers send it), the
 * answer text, then each tool call by its `index` (calls may interleave; arguments arrive as
 * fragments). The `finish_reason` closes every open block and ends the message; the usage chunk
 * that follows (`stream_options.include_usage`) becomes `metadata`. A stream that ends without a
 * `finish_reason` is a transient error: the answer would be silently short.
 */
import { ModelTransientError, type ModelStreamEvent, type Usage } from '@skein/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ChatBlocks, toolInput, toolStart } from './chat-blocks.js';
import { toStopReason, usageOf } from './chat-mapping.js';

type Delta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };

export async function* translateChunks(
  chunks: AsyncIterable<ChatCompletionChunk>,
  started: number,
): AsyncGenerator<ModelStreamEvent> {
  const blocks = new ChatBlocks();
  let begun = false;
  let stopped = false;
  let usage: Usage | undefined;
  for await (const chunk of chunks) {
    if (!begun) {
      begun = true;
      yield { messageStart: { role: 'assistant' } };
    }
    usage = usageOf(chunk) ?? usage;
    const choice = chunk.choices[0];
    if (!choice || stopped) continue;
    const delta = (choice.delta ?? {}) as Delta;
    const thinking = delta.reasoning_content ?? delta.reasoning;
    if (thinking) yield blocks.reasoning(thinking);
    if (delta.content) yield blocks.text(delta.content);
    for (const call of delta.tool_calls ?? []) {
      let block = blocks.toolBlock(call.index);
      if (block === undefined) {
        block = blocks.openTool(call.index);
        yield toolStart(block, call, chunk.id, blocks.toolCount);
      }
      const input = call.function?.arguments;
      if (input) yield toolInput(block, input);
    }
    if (choice.finish_reason) {
      stopped = true;
      yield* blocks.stopAll();
      yield { messageStop: { stopReason: toStopReason(choice.finish_reason, blocks.toolCount > 0) } };
    }
  }
  if (!stopped) {
    throw new ModelTransientError(
      'The OpenAI-compatible stream ended before a finish_reason: the answer is incomplete (was the connection cut?); the agent retries it.',
    );
  }
  yield {
    metadata: {
      usage: usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      metrics: { latencyMs: Math.round(performance.now() - started) },
    },
  };
}
