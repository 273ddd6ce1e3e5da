/** Reading a server's SSE in tests that talk to real server processes. */

/** One SSE frame: its id, event name and JSON data. */
export type Sse = { id?: string; event?: string; data: Record<string, unknown> };

/** The frames of an SSE text. */
export function parseSse(text: string): Sse[] {
  return text
    .split('\n\n')
    .filter((f) => f.includes('data: '))
    .map((frame) => {
      const fields = Object.fromEntries(
        frame.split('\n').map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]),
      );
      return {
        ...(fields['id'] ? { id: fields['id'] } : {}),
        ...(fields['event'] ? { event: fields['event'] } : {}),
        data: JSON.parse(fields['data'] ?? 'null'),
      };
    });
}

/** Reads SSE from `res` until `stop(events)` holds (then leaves the connection to die with the process) or the stream ends. */
export async function readSseUntil(res: Response, stop: (events: Sse[]) => boolean): Promise<Sse[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const events = parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2));
    if (stop(events)) {
      void reader.cancel().catch(() => undefined);
      return events;
    }
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) return parseSse(text);
    text += decoder.decode(value, { stream: true });
  }
}
