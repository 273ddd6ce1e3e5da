import type { ConverseResponse, ConverseStreamOutput, TokenUsage } from '@aws-sdk/client-bedrock-runtime';
import type { ModelStreamEvent, Usage } from '@skein/core';

/** Core usage from Bedrock's token usage, cache counts included when Bedrock sent them. */
function toUsage(usage: TokenUsage | undefined): Usage {
  const inputTokens = usage?.inputTokens ?? 0;
  const outputTokens = usage?.outputTokens ?? 0;
  const out: Usage = { inputTokens, outputTokens, totalTokens: usage?.totalTokens ?? inputTokens + outputTokens };
  if (usage?.cacheReadInputTokens !== undefined) out.cacheReadInputTokens = usage.cacheReadInputTokens;
  if (usage?.cacheWriteInputTokens !== undefined) out.cacheWriteInputTokens = usage.cacheWriteInputTokens;
  return out;
}

function metadataEvent(usage: TokenUsage | undefined, latencyMs: number | undefined): ModelStreamEvent {
  return {
    metadata: latencyMs === undefined ? { usage: toUsage(usage) } : { usage: toUsage(usage), metrics: { latencyMs } },
  };
}

/**
 * One ConverseStream event as a core event, or `undefined` for events core has no place for
 * (citations, image or tool-result blocks, unknown members). Exception members are thrown by the
 * SDK before they reach this function.
 */
export function fromStreamEvent(event: ConverseStreamOutput): ModelStreamEvent | undefined {
  if (event.contentBlockDelta) {
    const { contentBlockIndex = 0, delta } = event.contentBlockDelta;
    if (delta?.text !== undefined) return { contentBlockDelta: { contentBlockIndex, delta: { text: delta.text } } };
    if (delta?.toolUse)
      return { contentBlockDelta: { contentBlockIndex, delta: { toolUse: { input: delta.toolUse.input ?? '' } } } };
    const r = delta?.reasoningContent;
    if (r?.text !== undefined)
      return { contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { text: r.text } } } };
    if (r?.signature !== undefined)
      return { contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { signature: r.signature } } } };
    if (r?.redactedContent !== undefined)
      return {
        contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { redactedContent: r.redactedContent } } },
      };
    return undefined;
  }
  if (event.contentBlockStart) {
    const { contentBlockIndex = 0, start } = event.contentBlockStart;
    if (!start?.toolUse) return undefined;
    const { toolUseId = '', name = '' } = start.toolUse;
    return { contentBlockStart: { contentBlockIndex, start: { toolUse: { toolUseId, name } } } };
  }
  if (event.contentBlockStop)
    return { contentBlockStop: { contentBlockIndex: event.contentBlockStop.contentBlockIndex ?? 0 } };
  if (event.messageStart) return { messageStart: { role: 'assistant' } };
  if (event.messageStop) return { messageStop: { stopReason: event.messageStop.stopReason ?? 'end_turn' } };
  if (event.metadata) return metadataEvent(event.metadata.usage, event.metadata.metrics?.latencyMs);
  return undefined;
}

/** A Converse (non-streaming) answer replayed as the events ConverseStream would have sent. */
export function fromConverseResponse(response: ConverseResponse): ModelStreamEvent[] {
  const events: ModelStreamEvent[] = [{ messageStart: { role: 'assistant' } }];
  const content = response.output?.message?.content ?? [];
  let index = 0;
  for (const block of content) {
    const contentBlockIndex = index;
    if (block.text !== undefined) {
      events.push({ contentBlockDelta: { contentBlockIndex, delta: { text: block.text } } });
    } else if (block.toolUse) {
      const { toolUseId = '', name = '', input } = block.toolUse;
      events.push({ contentBlockStart: { contentBlockIndex, start: { toolUse: { toolUseId, name } } } });
      events.push({
        contentBlockDelta: { contentBlockIndex, delta: { toolUse: { input: JSON.stringify(input ?? {}) } } },
      });
    } else if (block.reasoningContent) {
      const { reasoningText, redactedContent } = block.reasoningContent;
      if (reasoningText) {
        events.push({
          contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { text: reasoningText.text ?? '' } } },
        });
        if (reasoningText.signature !== undefined) {
          events.push({
            contentBlockDelta: {
              contentBlockIndex,
              delta: { reasoningContent: { signature: reasoningText.signature } },
            },
          });
        }
      } else if (redactedContent) {
        events.push({ contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { redactedContent } } } });
      } else continue;
    } else continue;
    events.push({ contentBlockStop: { contentBlockIndex } });
    index++;
  }
  events.push({ messageStop: { stopReason: response.stopReason ?? 'end_turn' } });
  events.push(metadataEvent(response.usage, response.metrics?.latencyMs));
  return events;
}
