import { errorMessage } from '@skein/core';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InspectorStore } from '../store/inspector-store.js';
import { PAGE_CSP, renderHtmlPage } from '../render/html-page.js';
import { pageData } from '../render/page-data.js';
import { isInternalSession } from '../view/internal.js';
import { loadSession } from '../view/load-session.js';
import { indexPage } from './index-page.js';
import { streamSessionEvents } from './session-events.js';

/** Options of {@link serveStore}. */
export interface ServeOptions {
  /** Port on 127.0.0.1; default 0 (any free port). */
  port?: number;
  /** How often a watched session is read again, in ms; default 500. */
  pollMs?: number;
  /** List and show a server's own sessions and records too (ids beginning with `skein-`); default false. */
  internal?: boolean;
}

/** A running inspector server. */
export interface LiveServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Sent with every answer: the page's own policy, never framed, no sniffing, no referrer. */
const SECURITY_HEADERS = {
  'content-security-policy': `${PAGE_CSP}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Serves the store on 127.0.0.1: `/` lists the sessions, `/session/<id>/` is a session's page, and
 * `/session/<id>/events` streams new page data (server-sent events) whenever the session changes.
 * Reads only.
 */
export async function serveStore(store: InspectorStore, options: ServeOptions = {}): Promise<LiveServer> {
  const pollMs = options.pollMs ?? 500;
  const internal = options.internal === true;
  const timers = new Set<NodeJS.Timeout>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // Reads only: a body is never read, and the connection closes instead of draining it.
      res.writeHead(405, { allow: 'GET, HEAD', connection: 'close', 'content-type': 'text/plain' }).end('Read only.\n');
      return;
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const match = /^\/session\/([^/]+)\/(events)?$/.exec(path);
    const id = match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(await indexPage(store, internal));
    } else if (id === undefined || (isInternalSession(id) && !internal)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found. Open / for the sessions.\n');
    } else if (match?.[2] === 'events') {
      await streamSessionEvents(store, id, req, res, { pollMs, timers, internal });
    } else {
      const data = pageData(await loadSession(store, id, { internal }));
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(renderHtmlPage(data, { live: true }));
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`The inspector could not read the store: ${errorMessage(error)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
