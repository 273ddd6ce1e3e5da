/**
 * Tells a customer's open page that a turn of their conversation started elsewhere (the supervisor
 * answered a refund), so the page re-joins it at once (`GET .../stream?format=ui`) instead of
 * polling. One server-sent event stream per open page: `event: turn` with `data: {"turn":n}`
 * (the page re-joins turn `n` even when it ended already: `lastEventId=n.0.0`); keep-alive comments; the
 * browser's EventSource reconnects by itself after a restart.
 */

type Listener = (event: string, data: string) => void;

const encoder = new TextEncoder();

export class TurnNotices {
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #closers = new Set<() => void>();

  /** Tells the pages of `conversationId` that `event` happened (`data`: a JSON object). */
  publish(conversationId: string, event: string, data: Record<string, unknown> = {}): void {
    const json = JSON.stringify(data);
    for (const listener of this.#listeners.get(conversationId) ?? []) listener(event, json);
  }

  /** The event stream of one page of `conversationId`. */
  response(conversationId: string, heartbeatMs = 15_000): Response {
    let stop = (): void => undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const send = (text: string): void => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            stop();
          }
        };
        const listener: Listener = (event, data) => send(`event: ${event}\ndata: ${data}\n\n`);
        const beat = setInterval(() => send(': keep-alive\n\n'), heartbeatMs);
        beat.unref();
        const set = this.#listeners.get(conversationId) ?? new Set();
        set.add(listener);
        this.#listeners.set(conversationId, set);
        stop = () => {
          clearInterval(beat);
          set.delete(listener);
          if (set.size === 0) this.#listeners.delete(conversationId);
          this.#closers.delete(close);
        };
        const close = (): void => {
          stop();
          try {
            controller.close();
          } catch {
            // already closed
          }
        };
        this.#closers.add(close);
        send('retry: 1000\n\n');
      },
      cancel: () => stop(),
    });
    return new Response(body, {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
    });
  }

  /** Ends every open stream (the server is stopping). */
  closeAll(): void {
    for (const close of [...this.#closers]) close();
  }
}
