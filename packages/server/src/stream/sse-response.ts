/**
 * Streams a turn's event log to one client as SSE: what it missed, then the live events, batched per
 * turn of the event loop into one write (the events a model call streams in one go, or a turn's start
 * and its first message, cost one chunk and one syscall, not one each; they leave within the same loop
 * turn), with keep-alive comments, and detached when the client goes away (the turn goes on). Three
 * formats: the server's own events, the AI SDK UI message stream, or AG-UI events (both mapped per
 * client from the same events).
 */
import type { AGUIEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { Context } from 'hono';
import { mapAguiEvent } from '../agui/agui-mapper.js';
import { newAguiState, type AguiRun } from '../agui/agui-speakers.js';
import type { EventLog } from '../runs/event-log.js';
import { mapUiEvent } from '../ui/ui-mapper.js';
import { newUiState } from '../ui/ui-speakers.js';
import { UI_STREAM_DONE, UI_STREAM_HEADERS, type UiChunk } from '../ui/ui-chunks.js';
import { onHeartbeat } from './heartbeat.js';
import type { LoggedEvent, ServerEvent } from './server-events.js';
import { SSE_HEADERS, SSE_KEEPALIVE, sseFrame } from './sse.js';
import { openSink } from './sse-sink.js';

/** How one client's stream is written. */
export interface StreamOptions {
  /** The first seq to send. */
  from: number;
  format: 'server' | 'ui' | 'agui';
  /** The AG-UI run (`format: 'agui'`): its thread and run ids. */
  agui?: AguiRun;
  heartbeatMs: number;
  /** Events sent before the log's, without an id (a `resumed` or `gap` notice). */
  prelude?: ServerEvent[];
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** Turns log entries into frames for one client. */
function framer(options: StreamOptions): { frames(entry: LoggedEvent): string; end: string } {
  if (options.format === 'server') return { frames: (entry) => entry.frame, end: '' };
  if (options.format === 'agui') {
    if (!options.agui) throw new Error('unreachable: an AG-UI stream names its run');
    const state = newAguiState(options.agui);
    const encoder = new EventEncoder();
    const events: AGUIEvent[] = [];
    return {
      frames: (entry) => {
        events.length = 0;
        mapAguiEvent(state, entry.event, events);
        let text = '';
        for (const event of events) text += encoder.encodeSSE(event);
        return text;
      },
      end: '',
    };
  }
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
    end: UI_STREAM_DONE,
  };
}

/** The SSE response for `log` from `options.from` on, written to the client of `c`. */
export function sseResponse(c: Context, log: EventLog, options: StreamOptions): Response {
  const make = framer(options);
  const headers = { ...(options.format === 'ui' ? UI_STREAM_HEADERS : SSE_HEADERS), ...options.headers };
  const sink = openSink(c, headers);
  let pending = '';
  for (const event of options.prelude ?? []) pending += sseFrame(JSON.stringify(event), event.type);
  let scheduled = false;
  let ending = false;
  let closed = false;
  let stopBeat: (() => void) | undefined;
  const flush = (): void => {
    scheduled = false;
    if (closed) return;
    const text = pending;
    pending = '';
    if (!ending) return sink.write(text);
    closed = true;
    stopBeat?.();
    sink.end(text + make.end);
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  const detach = log.subscribe(options.from, {
    event: (entry) => {
      pending += make.frames(entry);
      schedule();
    },
    end: () => {
      ending = true;
      schedule();
    },
  });
  // What is already there (the replay, or a new turn's start) leaves with what the run adds in this
  // loop turn (the first message), and with the status line and headers.
  schedule();
  if (!ending)
    stopBeat = onHeartbeat(options.heartbeatMs, () => {
      if (!closed) sink.write(SSE_KEEPALIVE);
    });
  sink.onClose(() => {
    closed = true;
    stopBeat?.();
    detach();
  });
  return sink.response;
}
