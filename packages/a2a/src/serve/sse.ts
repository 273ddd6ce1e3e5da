/**
 * Server-sent events from an async generator, as a web `Response`: the first event is awaited before
 * the response starts (an error there is answered as a plain error, as the SDK's Express adapter
 * does); later errors become an `event: error` frame. A client that goes away stops the generator
 * (the run it watched goes on).
 */
const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

const frame = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`;
const errorFrame = (data: unknown): string => `event: error\ndata: ${JSON.stringify(data)}\n\n`;

export interface SseOptions<T> {
  /** Wire form of one event. */
  encode: (event: T) => unknown;
  /** Wire form of an error after the stream started. */
  errorBody: (error: unknown) => unknown;
  /** The response to give when the first event fails. */
  firstError: (error: unknown) => Response;
  headers?: Record<string, string>;
  /** Called when the client goes away (before the generator is asked to return). */
  onCancel?: () => void;
}

export async function sseResponse<T>(events: AsyncGenerator<T, void, undefined>, o: SseOptions<T>): Promise<Response> {
  let first: IteratorResult<T, void>;
  try {
    first = await events.next();
  } catch (error) {
    return o.firstError(error);
  }
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        if (!first.done) controller.enqueue(encoder.encode(frame(o.encode(first.value))));
        for (;;) {
          const step = await events.next();
          if (step.done) break;
          controller.enqueue(encoder.encode(frame(o.encode(step.value))));
        }
      } catch (error) {
        try {
          controller.enqueue(encoder.encode(errorFrame(o.errorBody(error))));
        } catch {
          // the client is gone
        }
      }
      try {
        controller.close();
      } catch {
        // already closed by a cancel
      }
    },
    cancel() {
      o.onCancel?.();
      events.return(undefined).catch(() => undefined);
    },
  });
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...o.headers } });
}
