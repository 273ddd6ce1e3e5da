import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { ModelTransientError, type ModelStreamEvent } from '@skein/core';
import { ContentBlocks } from './content-blocks.js';
import { MessageState } from './message-state.js';

/** Where a failure happened: opening the request, or reading the stream. */
export type StreamPhase = 'request' | 'stream';

/**
 * Opens the stream with `open` and turns Anthropic's raw events into core stream events as each one
 * arrives: content blocks by content-blocks.ts, the message's id, stop reason and usage by
 * message-state.ts. `message_stop` yields `messageStop`, then `metadata` (usage, latency since the
 * request started). A stream that ends before `message_stop` is an error: the answer would be
 * silently short. Every failure goes through `mapError`. One generator does all of it, as each
 * generator layer costs time per event (only a block's start, once per block, has one of its own).
 */
export async function* translateStream(
  open: () => Promise<AsyncIterable<RawMessageStreamEvent>>,
  mapError: (error: unknown, phase: StreamPhase) => Error,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const message = new MessageState();
  let events: AsyncIterable<RawMessageStreamEvent>;
  try {
    events = await open();
  } catch (error) {
    throw mapError(error, 'request');
  }
  const blocks = new ContentBlocks();
  let stopped = false;
  try {
    for await (const event of events) {
      if (stopped) continue; // drain to the end so the SDK releases the connection normally
      let out: ModelStreamEvent | undefined;
      switch (event.type) {
        case 'content_block_delta':
          out = blocks.delta(event);
          break;
        case 'content_block_start':
          yield* blocks.start(event);
          break;
        case 'content_block_stop':
          out = blocks.stop(event.index);
          break;
        case 'message_start':
          message.start(event.message);
          out = { messageStart: { role: 'assistant' } };
          break;
        case 'message_delta':
          message.update(event);
          break;
        case 'message_stop':
          yield message.stopEvent();
          out = message.metadataEvent();
          stopped = true;
          break;
      }
      if (out !== undefined) yield out;
    }
  } catch (error) {
    throw mapError(error, 'stream');
  }
  if (stopped) return;
  throw mapError(
    new ModelTransientError(
      `The Anthropic stream ended before message_stop${message.id ? ` (message ${message.id})` : ''}: the answer is incomplete, probably a cut connection; the agent's retry strategy tries again.`,
    ),
    'stream',
  );
}
