import { ModelError, ModelTransientError } from '../errors/model-errors.js';
import type { AgentEventData } from '../agent/agent-events.js';
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
  /** The id of the model that answered, when a delegating model (`fallback`, `route`) said which. */
  answeredBy?: string;
  /** Tool uses a guardrail refused before they ran, by id, with the error result's text. */
  refused?: Map<string, string>;
}

type BlockState =
  | { kind: 'text'; text: string }
  | { kind: 'toolUse'; toolUseId: string; name: string; input: string }
  | {
      kind: 'reasoning';
      text: string;
      signature: string | undefined;
      redacted: Uint8Array | undefined;
    };

/**
 * Assembles one model answer from its stream events, synchronously: the caller iterates the model's
 * stream itself and hands the agent events to the watchers.
 */
export class StreamAccumulator {
  readonly #blocks: BlockState[] = [];
  #stopReason: StopReason | undefined;
  // Usage and latency count only when the answer completes: a failed attempt that is retried adds nothing.
  readonly #usage = emptyUsage();
  #latencyMs = 0;
  #streamed = false;

  /** True once the answer streamed some content (text, reasoning or tool input): a retry discards it. */
  get streamed(): boolean {
    return this.#streamed;
  }

  /** Takes one event; returns the `textDelta` or `reasoningDelta` event to yield after it, if any. */
  add(event: ModelStreamEvent): AgentEventData | undefined {
    const blocks = this.#blocks;
    if ('contentBlockDelta' in event) {
      this.#streamed = true;
      const { contentBlockIndex: index, delta } = event.contentBlockDelta;
      if ('text' in delta) {
        const block = (blocks[index] ??= { kind: 'text', text: '' });
        if (block.kind === 'text') block.text += delta.text;
        return { type: 'textDelta', data: delta.text };
      }
      if ('toolUse' in delta) {
        const block = blocks[index];
        if (block?.kind !== 'toolUse')
          throw new ModelError(`The model sent tool input for block ${index} before its contentBlockStart.`);
        block.input += delta.toolUse.input;
        return undefined;
      }
      const block = (blocks[index] ??= {
        kind: 'reasoning',
        text: '',
        signature: undefined,
        redacted: undefined,
      });
      if (block.kind !== 'reasoning') return undefined;
      const r = delta.reasoningContent;
      if ('text' in r) {
        block.text += r.text;
        return { type: 'reasoningDelta', data: r.text };
      }
      if ('signature' in r) block.signature = (block.signature ?? '') + r.signature;
      else block.redacted = r.redactedContent;
    } else if ('contentBlockStart' in event) {
      const { contentBlockIndex, start } = event.contentBlockStart;
      blocks[contentBlockIndex] = {
        kind: 'toolUse',
        toolUseId: start.toolUse.toolUseId,
        name: start.toolUse.name,
        input: '',
      };
    } else if ('messageStop' in event) {
      this.#stopReason = event.messageStop.stopReason as StopReason;
    } else if ('metadata' in event) {
      addUsage(this.#usage, event.metadata.usage);
      this.#latencyMs += event.metadata.metrics?.latencyMs ?? 0;
    }
    return undefined;
  }

  /**
   * The assembled turn, once the stream has ended; its usage and latency go into `metrics`. A stream
   * that ended without `messageStop` is an error: the answer would be silently short.
   */
  finish(metrics: AgentMetrics): ModelTurn {
    const stopReason = this.#stopReason;
    if (stopReason === undefined) {
      throw new ModelTransientError(
        'The model stream ended before messageStop: the answer is incomplete (was the connection cut?).',
      );
    }
    addUsage(metrics.usage, this.#usage);
    metrics.modelLatencyMs += this.#latencyMs;
    return finishTurn(this.#blocks, stopReason);
  }
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
          throw new Error(
            `it is nested more than ${MAX_INPUT_DEPTH} levels deep, which no tool takes and a session cannot store`,
          );
        }
      } catch (error) {
        invalidInputs ??= new Map();
        invalidInputs.set(block.toolUseId, (error as Error).message);
      }
      content.push({
        toolUse: { toolUseId: block.toolUseId, name: block.name, input },
      });
    } else {
      const reasoningContent: {
        reasoningText?: { text: string; signature?: string };
        redactedContent?: Uint8Array;
      } = {};
      if (block.redacted) reasoningContent.redactedContent = block.redacted;
      if (block.text || block.signature) {
        reasoningContent.reasoningText =
          block.signature === undefined ? { text: block.text } : { text: block.text, signature: block.signature };
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
  // The usual input is one object of scalars: answered without allocating a stack.
  if (max >= 1 && !hasObjectChild(value)) return false;
  const stack: [JsonValue, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth] = next;
    if (depth > max) return true;
    for (const child of Object.values(v as object) as JsonValue[])
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Whether an object or array holds an object or array (inherited enumerable keys may only make this say yes needlessly). */
function hasObjectChild(value: object): boolean {
  if (Array.isArray(value)) {
    for (const child of value as unknown[]) if (child !== null && typeof child === 'object') return true;
    return false;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object') return true;
  }
  return false;
}
