/** Reads the skein server's SSE stream (`id:`, `event:`, one `data:` line of JSON per frame) as its events. */
import type { ServerEvent } from '@skein/server';

/** Yields each event of an SSE body, in order; comments (keep-alives) are skipped. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = dataOf(frame);
        if (data !== undefined) yield JSON.parse(data) as ServerEvent;
        end = buffer.indexOf('\n\n');
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function dataOf(frame: string): string | undefined {
  for (const line of frame.split('\n')) if (line.startsWith('data: ')) return line.slice(6);
  return undefined;
}
