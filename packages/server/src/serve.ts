/**
 * Starts a server on Node (`@hono/node-server`) and stops it gracefully on SIGTERM / SIGINT: no new
 * connections or turns, attached streams are told, running turns end or stop at their next commit
 * point, then the process exits. Without `authorize` it binds 127.0.0.1 only, and says so.
 */
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import { ConfigurationError } from '@skein/core';
import type { SkeinServer } from './create-server.js';

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Default `PORT` from the environment, else 8787; 0 picks a free port. */
  port?: number;
  /** Default `0.0.0.0` with `authorize`, `127.0.0.1` without (and without it only a loopback address is accepted). */
  hostname?: string;
  /** Stop gracefully and exit on SIGTERM and SIGINT. Default true. */
  handleSignals?: boolean;
  /** Where start and stop lines go. Default `console.error`; `null` for silence. */
  log?: ((line: string) => void) | null;
}

/** A running server. */
export interface RunningServer {
  /** `http://host:port`. */
  readonly url: string;
  readonly port: number;
  readonly server: ServerType;
  /** Stops gracefully (as on SIGTERM) and closes the listener; does not exit the process. */
  stop(): Promise<void>;
}

const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/**
 * Serves `app` on Node.
 * @example
 * const running = await serve(createServer({ agents, sessions }), { port: 8787 });
 */
export async function serve(app: SkeinServer, options: ServeOptions = {}): Promise<RunningServer> {
  const log = options.log === null ? () => undefined : (options.log ?? ((line: string) => console.error(line)));
  const authorized = app.skein.authorized;
  const hostname = options.hostname ?? (authorized ? '0.0.0.0' : '127.0.0.1');
  if (!authorized && !LOOPBACK.includes(hostname)) {
    throw new ConfigurationError(
      `serve: without authorize the server listens on loopback only, not ${hostname}; give createServer an authorize(request) to serve other hosts.`,
    );
  }
  const port = options.port ?? Number(process.env['PORT'] ?? 8787);
  const server = createAdaptorServer({ fetch: app.fetch });
  // Idle keep-alive connections stay open longer than a load balancer's idle timeout (often 60 s), so
  // the balancer, not this server, closes them: no request races a close.
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
  // A deep accept queue: a thousand clients connecting at once are not reset.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: hostname, backlog: 4096 }, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  log(
    `[skein server] listening on ${url}${authorized ? '' : ' (no authorize: loopback only, every request is "anonymous")'}`,
  );
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      // No new connections; idle keep-alive ones are closed, busy ones when their response ends.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await app.skein.stop();
      // The streams' last events (turnEnd) are still being written: let them finish, then cut what is left.
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      log('[skein server] stopped');
    })();
    return stopping;
  };
  if (options.handleSignals !== false) {
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stopping) {
        log(`[skein server] ${signal} again: exiting now`);
        process.exit(1);
      }
      log(`[skein server] ${signal}: stopping (running turns finish or stop at their next commit point)`);
      void stop().then(() => process.exit(0));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
  return { url, port: address.port, server, stop };
}
