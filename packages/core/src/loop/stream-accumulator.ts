import { ModelError, ModelTransientError } from '../errors/model-errors.js';
import type { AgentStreamEvent } from '../agent/agent-events.js';
import type { ModelStreamEvent, StopReason } from '../model/model.js';
import type { AgentMetrics } from '../metrics/agent-metrics.js';
import { addUsage, emptyUsage } from '../metrics/agent-metrics.js';
import type { JsonValue } from '../types/json.js';
import type { ContentBlock, Message } from '../types/messages.js';

/** One model answer, assembled from its stream. */
export interface ModelTurn {
  message: Message;
  stopReason: StopReason;
  /** Tool uses whose input was not valid JSON, by id, with the parse error. */
  invalidInputs: Map<string, string> | undefined;
}

type BlockState =
  | { kind: 'text'; text: string }
  | { kind: 'toolUse'; toolUseId: string; name: string; input: string }
  | { kind: 'reasoning'; text: string; signature: string | undefined; redacted: Uint8Array | undefined };

/**
 * Consumes a model stream, yielding agent events as chunks arrive, and returns the assembled turn.
 * A stream that ends without `messageStop` is an error: the answer would be silently short.
 */
export async function* accumulateStream(
  stream: AsyncIterable<ModelStreamEvent>,
  metrics: AgentMetrics,
): AsyncGenerator<AgentStreamEvent, ModelTurn> {
  const blocks: BlockState[] = [];
  let stopReason: StopReason | undefined;
  // Usage and latency count only when the answer completes: a failed attempt that is retried adds nothing.
  const usage = emptyUsage();
  let latencyMs = 0;
  for await (const event of stream) {
    yield { type: 'modelStreamEvent', event };
    if ('contentBlockDelta' in event) {
      const { contentBlockIndex: index, delta } = event.contentBlockDelta;
      if ('text' in delta) {
        const block = (blocks[index] ??= { kind: 'text', text: '' });
        if (block.kind === 'text') block.text += delta.text;
        yield { type: 'textDelta', data: delta.text };
      } else if ('toolUse' in delta) {
        const block = blocks[index];
        if (block?.kind !== 'toolUse') throw new ModelError(`The model sent tool input for block ${index} before its contentBlockStart.`);
        block.input += delta.toolUse.input;
      } else {
        const block = (blocks[index] ??= { kind: 'reasoning', text: '', signature: undefined, redacted: undefined });
        if (block.kind !== 'reasoning') continue;
        const r = delta.reasoningContent;
        if ('text' in r) {
          block.text += r.text;
          yield { type: 'reasoningDelta', data: r.text };
        } else if ('signature' in r) block.signature = (block.signature ?? '') + r.signature;
        else block.redacted = r.redactedContent;
      }
    } else if ('contentBlockStart' in event) {
      const { contentBlockIndex, start } = event.contentBlockStart;
      blocks[contentBlockIndex] = { kind: 'toolUse', toolUseId: start.toolUse.toolUseId, name: start.toolUse.name, input: '' };
    } else if ('messageStop' in event) {
      stopReason = event.messageStop.stopReason as StopReason;
    } else if ('metadata' in event) {
      addUsage(usage, event.metadata.usage);
      latencyMs += event.metadata.metrics?.latencyMs ?? 0;
    }
  }
  if (stopReason === undefined) {
    throw new ModelTransientError('The model stream ended before messageStop: the answer is incomplete (was the connection cut?).');
  }
  addUsage(metrics.usage, usage);
  metrics.modelLatencyMs += latencyMs;
  return finishTurn(blocks, stopReason);
}

function finishTurn(blocks: BlockState[], stopReason: StopReason): ModelTurn {
  const content: ContentBlock[] = [];
  let invalidInputs: Map<string, string> | undefined;
  for (const block of blocks) {
    if (!block) continue;
    if (block.kind === 'text') {
      content.push({ text: block.text });
    } else if (block.kind === 'toolUse') {
      let input: JsonValue = {};
      try {
        input = block.input.trim() === '' ? {} : (JSON.parse(block.input) as JsonValue);
        if (deeperThan(input, MAX_INPUT_DEPTH)) {
          input = {};
          throw new Error(`it is nested more than ${MAX_INPUT_DEPTH} levels deep, which no tool takes and a session cannot store`);
        }
      } catch (error) {
        invalidInputs ??= new Map();
        invalidInputs.set(block.toolUseId, (error as Error).message);
      }
      content.push({ toolUse: { toolUseId: block.toolUseId, name: block.name, input } });
    } else {
      const reasoningContent: { reasoningText?: { text: string; signature?: string }; redactedContent?: Uint8Array } = {};
      if (block.redacted) reasoningContent.redactedContent = block.redacted;
      if (block.text || block.signature) {
        reasoningContent.reasoningText = block.signature === undefined ? { text: block.text } : { text: block.text, signature: block.signature };
      }
      content.push({ reasoningContent });
    }
  }
  return { message: { role: 'assistant', content }, stopReason, invalidInputs };
}

/** Deepest nesting of a tool input taken (JSON.stringify, and so storing the turn, fails near a few thousand). */
const MAX_INPUT_DEPTH = 100;

/** Whether `value` nests objects or arrays more than `max` levels deep (iterative: no stack to overflow). */
function deeperThan(value: JsonValue, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: [JsonValue, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth] = next;
    if (depth > max) return true;
    for (const child of Object.values(v as object) as JsonValue[]) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
