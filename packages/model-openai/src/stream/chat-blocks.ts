import type { ModelStreamEvent } from '@skein/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

type ToolCallDelta = ChatCompletionChunk.Choice.Delta.ToolCall;

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

  /** True once a tool call came. */
  get calledTools(): boolean {
    return this.#tools.size > 0;
  }

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

  /**
   * The `contentBlockStart` of a tool call seen for the first time (then `undefined`). Some local
   * servers send no id (or an empty one): the loop needs one to pair the result, so one is made up.
   */
  toolStart(call: ToolCallDelta, chunkId: string): ModelStreamEvent | undefined {
    if (this.#tools.has(call.index)) return undefined;
    const contentBlockIndex = this.#take();
    this.#tools.set(call.index, contentBlockIndex);
    const toolUseId = call.id ? call.id : `call_${chunkId || 'local'}_${this.#tools.size}`;
    return {
      contentBlockStart: { contentBlockIndex, start: { toolUse: { toolUseId, name: call.function?.name ?? '' } } },
    };
  }

  /** A fragment of a started tool call's arguments, if the delta has one. */
  toolInput(call: ToolCallDelta): ModelStreamEvent | undefined {
    const input = call.function?.arguments;
    const contentBlockIndex = this.#tools.get(call.index);
    if (!input || contentBlockIndex === undefined) return undefined;
    return { contentBlockDelta: { contentBlockIndex, delta: { toolUse: { input } } } };
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
