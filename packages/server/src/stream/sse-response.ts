/**
 * Streams a turn's event log to one client as SSE: what it missed, then the live events, batched per
 * turn of the event loop into one write (the events a model call streams in one go cost one chunk and
 * one syscall, not one each; they leave within the same loop turn), with keep-alive comments,
 * and detached when the client goes away (the turn goes on). Two formats: the server's own events, or
 * the AI SDK UI message stream (mapped per client from the same events).
 */
import type { Context } from 'hono';
import type { EventLog } from '../runs/event-log.js';
import { mapUiEvent, newUiState } from '../ui/ui-mapper.js';
import { UI_STREAM_DONE, UI_STREAM_HEADERS, type UiChunk } from '../ui/ui-chunks.js';
import type { LoggedEvent, ServerEvent } from './server-events.js';
import { SSE_HEADERS, SSE_KEEPALIVE, sseFrame } from './sse.js';

/** How one client's stream is written. */
export interface StreamOptions {
  /** The first seq to send. */
  from: number;
  format: 'server' | 'ui';
  heartbeatMs: number;
  /** Events sent before the log's, without an id (a `resumed` or `gap` notice). */
  prelude?: ServerEvent[];
  /** Extra response headers. */
  headers?: Record<string, string>;
}

const encoder = new TextEncoder();

/** One keep-alive timer for every open stream (a thousand streams, one timer), per interval. */
const beats = new Map<number, { timer: NodeJS.Timeout; streams: Set<() => void> }>();

function onHeartbeat(ms: number, beat: () => void): () => void {
  let entry = beats.get(ms);
  if (!entry) {
    const streams = new Set<() => void>();
    const timer = setInterval(() => {
      for (const send of streams) send();
    }, ms);
    timer.unref();
    entry = { timer, streams };
    beats.set(ms, entry);
  }
  const { streams, timer } = entry;
  streams.add(beat);
  return () => {
    streams.delete(beat);
    if (streams.size === 0 && beats.get(ms)?.timer === timer) {
      clearInterval(timer);
      beats.delete(ms);
    }
  };
}

/** Turns log entries into frames for one client. */
function framer(format: 'server' | 'ui'): { frames(entry: LoggedEvent): string; end(): string } {
  if (format === 'server') return { frames: (entry) => entry.frame, end: () => '' };
  const state = newUiState();
  const chunks: UiChunk[] = [];
  return {
    frames: (entry) => {
      chunks.length = 0;
      mapUiEvent(state, entry.event, chunks);
      let text = '';
      for (const chunk of chunks) text += `data: ${JSON.stringify(chunk)}\n\n`;
      return text;
    },
    end: () => UI_STREAM_DONE,
  };
}

/** The SSE response for `log` from `options.from` on, for the client of `_c`. */
export function sseResponse(_c: Context, log: EventLog, options: StreamOptions): Response {
  const make = framer(options.format);
  let detach: (() => void) | undefined;
  let stopBeat: (() => void) | undefined;
  let pending = '';
  for (const event of options.prelude ?? []) pending += sseFrame(JSON.stringify(event), event.type);
  let scheduled = false;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const flush = (): void => {
        scheduled = false;
        if (closed || pending === '') return;
        controller.enqueue(encoder.encode(pending));
        pending = '';
      };
      const finish = (): void => {
        if (closed) return;
        pending += make.end();
        flush();
        closed = true;
        stopBeat?.();
        controller.close();
      };
      detach = log.subscribe(options.from, {
        event: (entry) => {
          pending += make.frames(entry);
          if (!scheduled) {
            scheduled = true;
            setImmediate(flush);
          }
        },
        end: () => setImmediate(finish),
      });
      flush();
      if (!closed)
        stopBeat = onHeartbeat(options.heartbeatMs, () => {
          if (!closed) controller.enqueue(encoder.encode(SSE_KEEPALIVE));
        });
    },
    cancel() {
      closed = true;
      stopBeat?.();
      detach?.();
    },
  });
  const headers = { ...(options.format === 'ui' ? UI_STREAM_HEADERS : SSE_HEADERS), ...options.headers };
  return new Response(body, { status: 200, headers });
}
