/**
 * Server-sent events from an async generator, with Hono's `streamSSE`: the first event is awaited
 * before the response starts (an error there is answered as a plain error, as the SDK's Express
 * adapter does); later errors become an `event: error` frame. A client that goes away stops the
 * generator (the run it watched goes on).
 */
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';

/** How a stream of `T` is written. */
export interface SseOptions<T> {
  /** Wire form of one event. */
  encode: (event: T) => unknown;
  /** Wire form of an error after the stream started. */
  errorBody: (error: unknown) => unknown;
  /** The response to give when the first event fails. */
  firstError: (error: unknown) => Response;
  /** Called when the client goes away (before the generator is asked to return). */
  onCancel?: () => void;
}

/** The SSE response for `events`, one `data:` frame each, for the client of `c`. */
export async function sseResponse<T>(
  c: Context,
  events: AsyncGenerator<T, void, undefined>,
  o: SseOptions<T>,
): Promise<Response> {
  let first: IteratorResult<T, void>;
  try {
    first = await events.next();
  } catch (error) {
    return o.firstError(error);
  }
  // streamSSE sets content-type, cache-control and connection; proxies must not buffer either.
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => {
      o.onCancel?.();
      events.return(undefined).catch(() => undefined);
    });
    try {
      for (let step = first; !step.done && !stream.aborted; step = await events.next())
        await stream.writeSSE({ data: JSON.stringify(o.encode(step.value)) });
    } catch (error) {
      if (!stream.aborted) await stream.writeSSE({ event: 'error', data: JSON.stringify(o.errorBody(error)) });
    }
  });
}
