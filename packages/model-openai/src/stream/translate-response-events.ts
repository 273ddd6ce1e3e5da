/**
 * Responses API stream events as skein stream events. Each output item (by `output_index`) is one
 * block, numbered in order of appearance (response-blocks.ts); what each item yields is in
 * response-items.ts. An item's `output_item.done` stops its block. A terminal event ends the
 * message, or throws what the stream reports (response-end.ts); a stream that ends before a
 * terminal event is a transient error.
 */
import { ModelTransientError, type ModelStreamEvent } from '@skein/core';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { Blocks } from './response-blocks.js';
import { endOf, type End } from './response-end.js';
import { argumentsDelta, itemAdded, reasoningDelta, rest, text, wholeItem } from './response-items.js';

/** Translates one Responses API event stream to core stream events, ending with `metadata`; throws what the stream reports. */
export async function* translateResponseEvents(
  events: AsyncIterable<ResponseStreamEvent>,
  started: number,
): AsyncGenerator<ModelStreamEvent> {
  const blocks = new Blocks();
  let begun = false;
  let end: End | undefined;
  for await (const event of events) {
    if (!begun) {
      begun = true;
      yield { messageStart: { role: 'assistant' } };
    }
    if (end) continue;
    let out: ModelStreamEvent | undefined;
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (event.delta) out = text(blocks.at(event.output_index).index, event.delta);
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (event.delta) out = reasoningDelta(blocks.at(event.output_index), event);
        break;
      case 'response.function_call_arguments.delta':
        out = argumentsDelta(blocks.get(event.output_index), event.delta);
        break;
      case 'response.function_call_arguments.done': {
        const block = blocks.get(event.output_index);
        if (block) out = rest(block, event.arguments);
        break;
      }
      case 'response.output_item.added':
        yield* itemAdded(blocks, event.output_index, event.item);
        break;
      case 'response.output_item.done':
        yield* wholeItem(blocks, event.output_index, event.item);
        yield* blocks.stop(event.output_index);
        break;
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
      case 'error':
        end = endOf(event, blocks.calls);
        yield* blocks.stop();
        out = { messageStop: { stopReason: end.stopReason } };
        break;
    }
    if (out !== undefined) yield out;
  }
  if (!end) {
    throw new ModelTransientError(
      'The Responses API stream ended before response.completed: the answer is incomplete (was the connection cut?); the agent retries it.',
    );
  }
  yield { metadata: { usage: end.usage, metrics: { latencyMs: Math.round(performance.now() - started) } } };
}
