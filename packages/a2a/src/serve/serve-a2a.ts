/**
 * Serves a target as an A2A agent on its own HTTP server (Node, `@hono/node-server`). Tasks a
 * restart cut are resumed before the server accepts requests.
 */
import type { AddressInfo } from 'node:net';
import { createA2AApp, type A2AApp } from './a2a-app.js';
import type { A2AServerOptions } from './options.js';

/** Options of {@link serveA2A}. */
export interface ServeA2AOptions extends A2AServerOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  hostname?: string;
}

/** A running A2A server. */
export interface A2AServer {
  /** The base URL (`http://127.0.0.1:<port>`); the card is at `<url>/.well-known/agent-card.json`. */
  readonly url: string;
  readonly port: number;
  readonly a2a: A2AApp;
  /** How many tasks a restart had cut and were resumed at start. */
  readonly resumed: number;
  /** Stops accepting requests, waits for the runs in progress, releases the sessions. */
  close(): Promise<void>;
}

/**
 * Serves `options.agent` as an A2A agent.
 * @example
 * const server = await serveA2A({ agent: (sessionManager) => new Agent({ model, sessionManager }), port: 4000 });
 * console.log(`${server.url}/.well-known/agent-card.json`);
 */
export async function serveA2A(options: ServeA2AOptions): Promise<A2AServer> {
  const { serve } = await import('@hono/node-server');
  const a2a = createA2AApp(options);
  const resumed = await a2a.start();
  const hostname = options.hostname ?? '127.0.0.1';
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve, reject) => {
    const s = serve({ fetch: a2a.app.fetch, port: options.port ?? 0, hostname }, (info: AddressInfo) =>
      resolve({ server: s, port: info.port }),
    );
    s.once('error', reject);
  });
  const url = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
  return {
    url,
    port,
    a2a,
    resumed,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await a2a.close();
    },
  };
}
