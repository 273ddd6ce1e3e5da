/**
 * Responses API stream events as skein stream events. Each output item (by `output_index`) is one
 * block, numbered in order of appearance: a `reasoning` item's summary or reasoning text, a
 * `message` item's text (refusals included, as text), a `function_call` item's tool use
 * (`contentBlockStart` with `call_id` as toolUseId when the item is added, then its argument
 * fragments). An item's `output_item.done` stops its block. `response.completed` ends the message
 * (`tool_use` when calls came, else `end_turn`), `response.incomplete` by its reason
 * (`max_output_tokens` -> `max_tokens`, `content_filter` -> `content_filtered`); their usage becomes
 * `metadata`. `response.failed` and `error` events throw the SDK's `APIError` (mapped by
 * to-skein-error); a stream that ends before a terminal event is a transient error.
 */
import { APIError } from 'openai';
import { ModelTransientError, type ModelStreamEvent, type StopReason, type Usage } from '@skein/core';
import type { Response, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';

const INCOMPLETE: Record<string, StopReason> = { max_output_tokens: 'max_tokens', content_filter: 'content_filtered' };

interface Block {
  index: number;
  /** The arguments received so far (function calls). */
  args: string;
  /** The reasoning summary part last written, to separate parts by a blank line. */
  summary: number;
}

/** The blocks of one stream, by output index. */
class Blocks {
  readonly #byOutput = new Map<number, Block>();
  readonly #open: number[] = [];
  #next = 0;
  calls = 0;

  get(output: number): Block | undefined {
    return this.#byOutput.get(output);
  }

  take(output: number): Block {
    const block = { index: this.#next++, args: '', summary: 0 };
    this.#byOutput.set(output, block);
    this.#open.push(block.index);
    return block;
  }

  /** Stops the block of `output` (if open), or every open block. */
  *stop(output?: number): Generator<ModelStreamEvent> {
    const indexes = output === undefined ? [...this.#open] : [this.#byOutput.get(output)?.index];
    for (const index of indexes) {
      const at = index === undefined ? -1 : this.#open.indexOf(index);
      if (at < 0 || index === undefined) continue;
      this.#open.splice(at, 1);
      yield { contentBlockStop: { contentBlockIndex: index } };
    }
  }
}

function usageOf(response: Response): Usage {
  const u = response.usage;
  if (!u) return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const cached = u.input_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: u.input_tokens - cached,
    outputTokens: u.output_tokens,
    totalTokens: u.total_tokens,
    ...(cached > 0 ? { cacheReadInputTokens: cached } : {}),
  };
}

const text = (index: number, t: string): ModelStreamEvent => ({
  contentBlockDelta: { contentBlockIndex: index, delta: { text: t } },
});
const reasoning = (index: number, t: string): ModelStreamEvent => ({
  contentBlockDelta: { contentBlockIndex: index, delta: { reasoningContent: { text: t } } },
});
const input = (index: number, t: string): ModelStreamEvent => ({
  contentBlockDelta: { contentBlockIndex: index, delta: { toolUse: { input: t } } },
});

function* startCall(
  blocks: Blocks,
  output: number,
  item: Extract<ResponseOutputItem, { type: 'function_call' }>,
): Generator<ModelStreamEvent, Block> {
  const block = blocks.take(output);
  blocks.calls++;
  yield {
    contentBlockStart: {
      contentBlockIndex: block.index,
      start: { toolUse: { toolUseId: item.call_id, name: item.name } },
    },
  };
  return block;
}

/** The part of `full` not sent yet, when what was sent is its beginning (servers that send only `.done`). */
function* rest(block: Block, full: string): Generator<ModelStreamEvent> {
  if (full.length > block.args.length && full.startsWith(block.args))
    yield input(block.index, full.slice(block.args.length));
  block.args = full;
}

/** An item that arrived whole (`output_item.done` with no deltas before it), as deltas. */
function* wholeItem(blocks: Blocks, output: number, item: ResponseOutputItem): Generator<ModelStreamEvent> {
  if (item.type === 'function_call')
    yield* rest(blocks.get(output) ?? (yield* startCall(blocks, output, item)), item.arguments);
  if (blocks.get(output)) return;
  if (item.type === 'message') {
    const t = item.content.map((c) => (c.type === 'output_text' ? c.text : c.refusal)).join('');
    if (t) yield text(blocks.take(output).index, t);
  } else if (item.type === 'reasoning') {
    const t = item.summary.map((s) => s.text).join('\n\n');
    if (t) yield reasoning(blocks.take(output).index, t);
  }
}

/** The failure a `response.failed` or `error` event reports, as the SDK's error for a body without a status. */
function failure(error: { code?: string | null; message?: string | null } | null | undefined): APIError {
  const message = error?.message || 'The response failed without a message';
  return new APIError(undefined, { code: error?.code ?? null, message, type: 'response_failed' }, message, undefined);
}

/** Translates one Responses API event stream to core stream events, ending with `metadata`; throws what the stream reports. */
export async function* translateResponseEvents(
  events: AsyncIterable<ResponseStreamEvent>,
  started: number,
): AsyncGenerator<ModelStreamEvent> {
  const blocks = new Blocks();
  let begun = false;
  let end: { stopReason: StopReason; usage: Usage } | undefined;
  for await (const event of events) {
    if (!begun) {
      begun = true;
      yield { messageStart: { role: 'assistant' } };
    }
    if (end) continue;
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (event.delta)
          yield text((blocks.get(event.output_index) ?? blocks.take(event.output_index)).index, event.delta);
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        if (!event.delta) break;
        const block = blocks.get(event.output_index) ?? blocks.take(event.output_index);
        const part = 'summary_index' in event ? event.summary_index : block.summary;
        const gap = part !== block.summary ? '\n\n' : '';
        block.summary = part;
        yield reasoning(block.index, gap + event.delta);
        break;
      }
      case 'response.output_item.added':
        if (event.item.type === 'function_call' && !blocks.get(event.output_index)) {
          const block = yield* startCall(blocks, event.output_index, event.item);
          if (event.item.arguments) yield* rest(block, event.item.arguments);
        }
        break;
      case 'response.function_call_arguments.delta': {
        const block = blocks.get(event.output_index);
        if (block && event.delta) {
          block.args += event.delta;
          yield input(block.index, event.delta);
        }
        break;
      }
      case 'response.function_call_arguments.done': {
        const block = blocks.get(event.output_index);
        if (block) yield* rest(block, event.arguments);
        break;
      }
      case 'response.output_item.done':
        yield* wholeItem(blocks, event.output_index, event.item);
        yield* blocks.stop(event.output_index);
        break;
      case 'response.completed':
        end = { stopReason: blocks.calls > 0 ? 'tool_use' : 'end_turn', usage: usageOf(event.response) };
        break;
      case 'response.incomplete':
        end = {
          stopReason: INCOMPLETE[event.response.incomplete_details?.reason ?? ''] ?? 'max_tokens',
          usage: usageOf(event.response),
        };
        break;
      case 'response.failed':
        throw failure(event.response.error);
      case 'error':
        throw failure(event);
      default:
        break;
    }
    if (end) {
      yield* blocks.stop();
      yield { messageStop: { stopReason: end.stopReason } };
    }
  }
  if (!end) {
    throw new ModelTransientError(
      'The Responses API stream ended before response.completed: the answer is incomplete (was the connection cut?); the agent retries it.',
    );
  }
  yield { metadata: { usage: end.usage, metrics: { latencyMs: Math.round(performance.now() - started) } } };
}
