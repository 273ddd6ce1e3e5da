import type { ModelStreamEvent } from '@skein/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

type ToolCallDelta = ChatCompletionChunk.Choice.Delta.ToolCall;

/**
 * The `contentBlockStart` of the `nth` tool call, in `block`. Some local servers send no id (or an
 * empty one): the loop needs one to pair the result, so one is made up.
 */
export function toolStart(block: number, call: ToolCallDelta, chunkId: string, nth: number): ModelStreamEvent {
  const toolUseId = call.id ? call.id : `call_${chunkId || 'local'}_${nth}`;
  return {
    contentBlockStart: { contentBlockIndex: block, start: { toolUse: { toolUseId, name: call.function?.name ?? '' } } },
  };
}

/** A fragment of a tool call's arguments, in `block`. */
export function toolInput(block: number, input: string): ModelStreamEvent {
  return { contentBlockDelta: { contentBlockIndex: block, delta: { toolUse: { input } } } };
}

/**
 * The blocks of one Chat Completions answer, numbered in order of appearance: one for reasoning
 * text, one for the answer text, one per tool call by its `index` (calls may interleave).
 */
export class ChatBlocks {
  #next = 0;
  #text: number | undefined;
  #reasoning: number | undefined;
  readonly #tools = new Map<number, number>();
  readonly #open: number[] = [];

  /** A piece of reasoning text, in the reasoning block. */
  reasoning(text: string): ModelStreamEvent {
    this.#reasoning ??= this.#take();
    return { contentBlockDelta: { contentBlockIndex: this.#reasoning, delta: { reasoningContent: { text } } } };
  }

  /** A piece of the answer, in the text block. */
  text(text: string): ModelStreamEvent {
    this.#text ??= this.#take();
    return { contentBlockDelta: { contentBlockIndex: this.#text, delta: { text } } };
  }

  /** The block of the tool call with this `index`, if it started. */
  toolBlock(index: number): number | undefined {
    return this.#tools.get(index);
  }

  /** Opens the block of the tool call with this `index`. */
  openTool(index: number): number {
    const block = this.#take();
    this.#tools.set(index, block);
    return block;
  }

  /** Tool calls started so far. */
  get toolCount(): number {
    return this.#tools.size;
  }

  /** Stops every block, in the order they opened. */
  *stopAll(): Generator<ModelStreamEvent, void, undefined> {
    for (const contentBlockIndex of this.#open) yield { contentBlockStop: { contentBlockIndex } };
  }

  #take(): number {
    const n = this.#next++;
    this.#open.push(n);
    return n;
  }
}
