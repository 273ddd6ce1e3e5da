/**
 * The events of a Responses output item: a `message` item's text (refusals included, as text), a
 * `reasoning` item's summary or reasoning text, a `function_call` item's tool use
 * (`contentBlockStart` with `call_id` as toolUseId when the item is added, then its argument
 * fragments), and an item that arrives whole (`output_item.done` with no deltas before it).
 */
import type { ModelStreamEvent } from '@skein/core';
import type {
  ResponseOutputItem,
  ResponseReasoningSummaryTextDeltaEvent,
  ResponseReasoningTextDeltaEvent,
} from 'openai/resources/responses/responses';
import type { Block, Blocks } from './response-blocks.js';

type FunctionCall = Extract<ResponseOutputItem, { type: 'function_call' }>;

export const text = (index: number, t: string): ModelStreamEvent => ({
  contentBlockDelta: { contentBlockIndex: index, delta: { text: t } },
});
const reasoning = (index: number, t: string): ModelStreamEvent => ({
  contentBlockDelta: { contentBlockIndex: index, delta: { reasoningContent: { text: t } } },
});
const input = (index: number, t: string): ModelStreamEvent => ({
  contentBlockDelta: { contentBlockIndex: index, delta: { toolUse: { input: t } } },
});

/** A piece of reasoning text; a new summary part starts after a blank line. */
export function reasoningDelta(
  block: Block,
  event: ResponseReasoningSummaryTextDeltaEvent | ResponseReasoningTextDeltaEvent,
): ModelStreamEvent {
  const part = 'summary_index' in event ? event.summary_index : block.summary;
  const gap = part !== block.summary ? '\n\n' : '';
  block.summary = part;
  return reasoning(block.index, gap + event.delta);
}

/** A fragment of a started call's arguments. */
export function argumentsDelta(block: Block | undefined, delta: string): ModelStreamEvent | undefined {
  if (!block || !delta) return undefined;
  block.args += delta;
  return input(block.index, delta);
}

/** The part of `full` not sent yet, when what was sent is its beginning (servers that send only `.done`). */
export function rest(block: Block, full: string): ModelStreamEvent | undefined {
  const missing = full.length > block.args.length && full.startsWith(block.args);
  const out = missing ? input(block.index, full.slice(block.args.length)) : undefined;
  block.args = full;
  return out;
}

function startCall(blocks: Blocks, output: number, item: FunctionCall): [Block, ModelStreamEvent] {
  const block = blocks.take(output);
  blocks.calls++;
  const start = { toolUse: { toolUseId: item.call_id, name: item.name } };
  return [block, { contentBlockStart: { contentBlockIndex: block.index, start } }];
}

/** An added item: a function call's start, and the arguments it already holds. */
export function* itemAdded(blocks: Blocks, output: number, item: ResponseOutputItem): Generator<ModelStreamEvent> {
  if (item.type !== 'function_call' || blocks.get(output)) return;
  const [block, start] = startCall(blocks, output, item);
  yield start;
  const more = item.arguments ? rest(block, item.arguments) : undefined;
  if (more) yield more;
}

/** An item that arrived whole (`output_item.done` with no deltas before it), as deltas. */
export function* wholeItem(blocks: Blocks, output: number, item: ResponseOutputItem): Generator<ModelStreamEvent> {
  if (item.type === 'function_call') {
    let block = blocks.get(output);
    if (!block) {
      const [started, start] = startCall(blocks, output, item);
      block = started;
      yield start;
    }
    const more = rest(block, item.arguments);
    if (more) yield more;
  }
  if (blocks.get(output)) return;
  if (item.type === 'message') {
    const t = item.content.map((c) => (c.type === 'output_text' ? c.text : c.refusal)).join('');
    if (t) yield text(blocks.take(output).index, t);
  } else if (item.type === 'reasoning') {
    const t = item.summary.map((s) => s.text).join('\n\n');
    if (t) yield reasoning(blocks.take(output).index, t);
  }
}
