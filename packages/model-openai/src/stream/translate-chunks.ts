/**
 * Chat Completions chunks as skein stream events. Blocks are numbered in order of appearance:
 * reasoning text (`reasoning_content`, or `reasoning` as some routers send it), the answer text,
 * then each tool call by its `index` (calls may interleave; arguments arrive as fragments). The
 * `finish_reason` closes every open block and ends the message; the usage chunk that follows
 * (`stream_options.include_usage`) becomes `metadata`. A stream that ends without a
 * `finish_reason` is a transient error: the answer would be silently short.
 */
import { ModelTransientError, type ModelStreamEvent, type StopReason, type Usage } from '@skein/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

const STOP: Record<string, StopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'content_filtered',
};

/** What the loop of one stream remembers. */
class BlockNumbers {
  next = 0;
  text: number | undefined;
  reasoning: number | undefined;
  readonly tools = new Map<number, number>();
  readonly open: number[] = [];

  take(): number {
    const n = this.next++;
    this.open.push(n);
    return n;
  }
}

function usageOf(chunk: ChatCompletionChunk): Usage | undefined {
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

type Delta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };

export async function* translateChunks(
  chunks: AsyncIterable<ChatCompletionChunk>,
  started: number,
): AsyncGenerator<ModelStreamEvent> {
  const blocks = new BlockNumbers();
  let begun = false;
  let stopped = false;
  let usage: Usage | undefined;
  let calls = 0;
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
    if (thinking) {
      blocks.reasoning ??= blocks.take();
      yield {
        contentBlockDelta: { contentBlockIndex: blocks.reasoning, delta: { reasoningContent: { text: thinking } } },
      };
    }
    if (delta.content) {
      blocks.text ??= blocks.take();
      yield { contentBlockDelta: { contentBlockIndex: blocks.text, delta: { text: delta.content } } };
    }
    for (const call of delta.tool_calls ?? []) {
      let index = blocks.tools.get(call.index);
      if (index === undefined) {
        index = blocks.take();
        blocks.tools.set(call.index, index);
        calls++;
        // Some local servers send no id (or an empty one): the loop needs one to pair the result.
        const toolUseId = call.id ? call.id : `call_${chunk.id || 'local'}_${calls}`;
        yield {
          contentBlockStart: {
            contentBlockIndex: index,
            start: { toolUse: { toolUseId, name: call.function?.name ?? '' } },
          },
        };
      }
      const fragment = call.function?.arguments;
      if (fragment) yield { contentBlockDelta: { contentBlockIndex: index, delta: { toolUse: { input: fragment } } } };
    }
    if (choice.finish_reason) {
      stopped = true;
      for (const index of blocks.open) yield { contentBlockStop: { contentBlockIndex: index } };
      const reason = STOP[choice.finish_reason] ?? (blocks.tools.size > 0 ? 'tool_use' : 'end_turn');
      yield { messageStop: { stopReason: blocks.tools.size > 0 && reason === 'end_turn' ? 'tool_use' : reason } };
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
