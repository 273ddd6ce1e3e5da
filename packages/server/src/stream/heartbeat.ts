/** Keep-alive beats for open streams: one timer per interval for every stream (a thousand streams, one timer). */

const beats = new Map<number, { timer: NodeJS.Timeout; streams: Set<() => void> }>();

/** Calls `beat` every `ms` until the returned function is called. */
export function onHeartbeat(ms: number, beat: () => void): () => void {
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
