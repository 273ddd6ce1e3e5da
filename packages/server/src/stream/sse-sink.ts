/**
 * Where one client's SSE text goes: a web `ReadableStream` body, as the fetch API wants (so the
 * response passes through any Hono middleware and runs on every runtime). On Node (`serve`,
 * `@hono/node-server`) the socket is corked from the handler until just after the first text is
 * written, so the status line and headers (which the adapter sends on their own at once for a
 * streamed body) leave with the first events in one write.
 */
import type { Context } from 'hono';

/** A client's stream: text in, then the end. */
export interface SseSink {
  /** The response to return from the handler. */
  readonly response: Response;
  /** Sends text. */
  write(text: string): void;
  /** Sends the last text and ends the response. */
  end(text: string): void;
  /** Calls `onGone` once when the client goes away before the end. */
  onClose(onGone: () => void): void;
}

/** The part of Node's `http.ServerResponse` the sink uses. */
interface Corkable {
  cork(): void;
  uncork(): void;
}

function corkableOf(c: Context): Corkable | undefined {
  const env: unknown = c.env;
  const out = typeof env === 'object' && env !== null ? (env as { outgoing?: unknown }).outgoing : undefined;
  if (typeof out !== 'object' || out === null) return undefined;
  const res = out as Partial<Corkable>;
  return typeof res.cork === 'function' && typeof res.uncork === 'function' ? (res as Corkable) : undefined;
}

const encoder = new TextEncoder();

/** A sink for the client of `c`, answering with `headers`. */
export function openSink(c: Context, headers: Record<string, string>): SseSink {
  const corked = corkableOf(c);
  corked?.cork();
  let uncork = corked
    ? () => {
        uncork = undefined;
        // The adapter writes a chunk a few promise turns after it is enqueued: uncork after them.
        setImmediate(() => corked.uncork());
      }
    : undefined;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let gone: (() => void) | undefined;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start: (ctrl) => {
      controller = ctrl;
    },
    cancel: () => {
      closed = true;
      uncork?.();
      gone?.();
    },
  });
  const send = (text: string): void => {
    if (text !== '') controller?.enqueue(encoder.encode(text));
    uncork?.();
  };
  return {
    response: new Response(body, { status: 200, headers }),
    write: (text) => {
      if (!closed) send(text);
    },
    end: (text) => {
      if (closed) return;
      send(text);
      closed = true;
      controller?.close();
    },
    onClose: (onGone) => {
      gone = onGone;
    },
  };
}
