/**
 * Streams a turn's event log to one client as SSE with Hono's `streamSSE`: what it missed, then the
 * live events, with keep-alive comments, and detached when the client goes away (the turn goes on).
 * Two formats: the server's own events (`id`, `event`, `data`), or the AI SDK UI message stream
 * (mapped per client from the same events, `data` only).
 */
import { EventChannel } from '@skein/core';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { EventLog } from '../runs/event-log.js';
import { mapUiEvent, newUiState } from '../ui/ui-mapper.js';
import { UI_STREAM_HEADERS, type UiChunk } from '../ui/ui-chunks.js';
import type { ServerEvent } from './server-events.js';
import { SSE_HEADERS, SSE_KEEPALIVE } from './sse.js';

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

/** A message for `writeSSE`, or a comment. */
type Message = { data: string; event?: string; id?: string } | { comment: string };

/** Turns a log's events into SSE messages for one client. */
function messages(format: 'server' | 'ui'): { of(event: ServerEvent, id?: string): Message[]; end: Message[] } {
  if (format === 'server')
    return {
      of: (event, id) => [{ data: JSON.stringify(event), event: event.type, ...(id === undefined ? {} : { id }) }],
      end: [],
    };
  const state = newUiState();
  const chunks: UiChunk[] = [];
  return {
    of: (event) => {
      chunks.length = 0;
      mapUiEvent(state, event, chunks);
      return chunks.map((chunk) => ({ data: JSON.stringify(chunk) }));
    },
    end: [{ data: '[DONE]' }],
  };
}

/** The SSE response for `log` from `options.from` on. */
export function sseResponse(c: Context, log: EventLog, options: StreamOptions): Response {
  const make = messages(options.format);
  const queue = new EventChannel<Message>();
  for (const event of options.prelude ?? []) for (const m of make.of(event)) queue.push(m);
  const detach = log.subscribe(options.from, {
    event: (entry) => {
      for (const m of make.of(entry.event, entry.id)) queue.push(m);
    },
    end: () => {
      for (const m of make.end) queue.push(m);
      queue.close();
    },
  });
  const stopBeat = onHeartbeat(options.heartbeatMs, () => queue.push({ comment: SSE_KEEPALIVE }));
  const response = streamSSE(c, async (stream) => {
    stream.onAbort(() => {
      stopBeat();
      detach();
      queue.close();
    });
    try {
      for await (const m of queue) {
        if (stream.aborted) break;
        if ('comment' in m) await stream.write(m.comment);
        else await stream.writeSSE(m);
      }
    } finally {
      stopBeat();
      detach();
    }
  });
  const headers = { ...(options.format === 'ui' ? UI_STREAM_HEADERS : SSE_HEADERS), ...options.headers };
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
