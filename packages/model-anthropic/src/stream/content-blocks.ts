import type {
  RawContentBlockDeltaEvent,
  RawContentBlockStartEvent,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { ModelStreamEvent } from '@skein/core';

type BlockKind = 'text' | 'toolUse' | 'reasoning';
type Delta = Extract<ModelStreamEvent, { contentBlockDelta: unknown }>['contentBlockDelta']['delta'];

const utf8 = new TextEncoder();

const delta = (contentBlockIndex: number, d: Delta): ModelStreamEvent => ({
  contentBlockDelta: { contentBlockIndex, delta: d },
});

/**
 * The content blocks of one message, by Anthropic's block index, and how each maps to core events.
 * Text blocks get no `contentBlockStart`; tool input arrives as JSON text chunks; thinking,
 * signatures and redacted thinking become `reasoningContent` deltas; blocks of server tools (and any
 * other kind) are remembered as unknown, and their deltas and stop are skipped.
 */
export class ContentBlocks {
  readonly #kinds: (BlockKind | undefined)[] = [];

  /** The core event of a `content_block_delta`, or `undefined` for a skipped block or delta type. */
  delta(event: RawContentBlockDeltaEvent): ModelStreamEvent | undefined {
    const d = event.delta;
    const i = event.index;
    if (this.#kinds[i] === undefined) return undefined;
    if (d.type === 'text_delta') return delta(i, { text: d.text });
    if (d.type === 'input_json_delta') return delta(i, { toolUse: { input: d.partial_json } });
    if (d.type === 'thinking_delta') return delta(i, { reasoningContent: { text: d.thinking } });
    if (d.type === 'signature_delta') return delta(i, { reasoningContent: { signature: d.signature } });
    return undefined;
  }

  /** The core events of a `content_block_start`: the block's start (tool use) and what it already holds. */
  *start(event: RawContentBlockStartEvent): Generator<ModelStreamEvent, void, undefined> {
    const block = event.content_block;
    const i = event.index;
    if (block.type === 'text') {
      this.#kinds[i] = 'text';
      if (block.text) yield delta(i, { text: block.text });
    } else if (block.type === 'tool_use') {
      this.#kinds[i] = 'toolUse';
      yield {
        contentBlockStart: { contentBlockIndex: i, start: { toolUse: { toolUseId: block.id, name: block.name } } },
      };
      const input: unknown = block.input;
      if (typeof input === 'object' && input !== null && Object.keys(input).length > 0) {
        yield delta(i, { toolUse: { input: JSON.stringify(input) } });
      }
    } else if (block.type === 'thinking') {
      this.#kinds[i] = 'reasoning';
      if (block.thinking) yield delta(i, { reasoningContent: { text: block.thinking } });
      if (block.signature) yield delta(i, { reasoningContent: { signature: block.signature } });
    } else if (block.type === 'redacted_thinking') {
      this.#kinds[i] = 'reasoning';
      yield delta(i, { reasoningContent: { redactedContent: utf8.encode(block.data) } });
    }
  }

  /** The core event of a `content_block_stop`, or `undefined` for a skipped block. */
  stop(index: number): ModelStreamEvent | undefined {
    return this.#kinds[index] === undefined ? undefined : { contentBlockStop: { contentBlockIndex: index } };
  }
}
