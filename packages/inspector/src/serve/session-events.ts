import type { IncomingMessage, ServerResponse } from 'node:http';
import { pageData, type PageData } from '../render/page-data.js';
import type { InspectorStore } from '../store/inspector-store.js';
import { loadSession } from '../view/load-session.js';

/** The data without its read time, to tell whether anything changed. */
const fingerprint = (data: PageData): string => JSON.stringify({ ...data, generatedAt: '' });

/**
 * `/session/<id>/events`: reads the session every `pollMs` and sends its page data (server-sent
 * events) whenever it changed. The poll's timer sits in `timers` until the client goes away.
 */
export async function streamSessionEvents(
  store: InspectorStore,
  id: string,
  req: IncomingMessage,
  res: ServerResponse,
  poll: { pollMs: number; timers: Set<NodeJS.Timeout>; internal: boolean },
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  let last = '';
  let busy = false;
  const tick = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const data = pageData(await loadSession(store, id, { internal: poll.internal }));
      const print = fingerprint(data);
      if (print !== last) {
        if (last !== '') res.write(`data: ${JSON.stringify(data)}\n\n`);
        last = print;
      }
    } finally {
      busy = false;
    }
  };
  await tick();
  const timer = setInterval(() => void tick().catch(() => undefined), poll.pollMs);
  poll.timers.add(timer);
  req.on('close', () => {
    clearInterval(timer);
    poll.timers.delete(timer);
  });
}
