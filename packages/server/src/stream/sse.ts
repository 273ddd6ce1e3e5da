/**
 * Server-sent events framing (WHATWG HTML, "Server-sent events"): `id:`, `event:` and one `data:` line
 * per frame (JSON never holds a raw newline), a blank line after each; comments for keep-alive.
 */

/** One SSE frame. `data` must not contain a newline (JSON.stringify output never does). */
export function sseFrame(data: string, event?: string, id?: string): string {
  let frame = '';
  if (id !== undefined) frame += `id: ${id}\n`;
  if (event !== undefined) frame += `event: ${event}\n`;
  return `${frame}data: ${data}\n\n`;
}

/** A comment line clients ignore: keeps proxies from closing an idle stream. */
export const SSE_KEEPALIVE = ': keep-alive\n\n';

/** Response headers of an SSE stream (no caching or proxy buffering). */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
});

/** Parses a `Last-Event-ID` of the server's form `<turn>.<attempt>.<seq>`; `undefined` for anything else. */
export function parseEventId(
  value: string | null | undefined,
): { turn: number; attempt: number; seq: number } | undefined {
  if (!value || value.length > 64) return undefined;
  const match = /^(\d{1,9})\.(\d{1,6})\.(\d{1,9})$/.exec(value.trim());
  if (!match) return undefined;
  return { turn: Number(match[1]), attempt: Number(match[2]), seq: Number(match[3]) };
}

/** The id of event `seq` of a turn's attempt. */
export function eventId(turn: number, attempt: number, seq: number): string {
  return `${turn}.${attempt}.${seq}`;
}
