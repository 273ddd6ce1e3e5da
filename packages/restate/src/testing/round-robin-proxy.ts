/**
 * A tiny HTTP/2 (cleartext) load balancer for loopback: Restate talks HTTP/2 to a deployment, and
 * one deployment has one URL, so to spread invocations over several worker processes on one
 * machine register this proxy's URL. Each HTTP/2 stream (one invocation attempt, or a discovery
 * request) goes to the next worker in its service's turn; bodies stream both ways. A worker that refused or
 * dropped a connection is skipped for a second (worker-pool.ts), so Restate's retries land on the
 * workers that are up. For tests and benchmarks: in production put any HTTP/2-capable load balancer
 * (Envoy, nginx `grpc_pass`, a cloud LB) there.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { WorkerPool } from './worker-pool.js';

const { NGHTTP2_CANCEL, NGHTTP2_INTERNAL_ERROR } = http2.constants;

/** A running round-robin proxy. */
export interface RoundRobinProxy {
  /** The URL to register with Restate, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Streams sent to each worker so far, in the order of `workers`. */
  readonly counts: readonly number[];
  close(): Promise<void>;
}

/** The headers a worker gets: all but the pseudo-headers, except the method and the path. */
function forwardedHeaders(headers: http2.IncomingHttpHeaders): http2.OutgoingHttpHeaders {
  const forward: http2.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!name.startsWith(':') || name === ':method' || name === ':path') forward[name] = value;
  return forward;
}

/** Sends one stream to the next worker and pipes both ways; a failure on either side ends the other. */
function forward(pool: WorkerPool, stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
  // Restate calls `/invoke/<service>/<handler>`: turns are kept per service (see WorkerPool.take).
  const url = pool.take(String(headers[':path'] ?? '').split('/')[2] ?? '');
  let upstream: http2.ClientHttp2Stream;
  try {
    upstream = pool.session(url).request(forwardedHeaders(headers));
  } catch {
    pool.markDown(url);
    stream.close(NGHTTP2_INTERNAL_ERROR);
    return;
  }
  upstream.on('response', (response) => {
    if (!stream.destroyed) stream.respond(response);
    upstream.pipe(stream);
  });
  upstream.on('error', () => !stream.destroyed && stream.close(NGHTTP2_INTERNAL_ERROR));
  stream.on('error', () => !upstream.destroyed && upstream.close(NGHTTP2_CANCEL));
  stream.on('close', () => !upstream.destroyed && upstream.close(NGHTTP2_CANCEL));
  stream.pipe(upstream);
}

/** Starts a proxy on a random 127.0.0.1 port in front of `workers` (URLs like `http://127.0.0.1:9080`). */
export async function startRoundRobinProxy(workers: readonly string[]): Promise<RoundRobinProxy> {
  if (workers.length === 0) throw new TypeError('startRoundRobinProxy needs at least one worker URL.');
  const pool = new WorkerPool(workers);
  const server = http2.createServer();
  const accepted = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    accepted.add(session);
    session.on('error', () => undefined);
    session.on('close', () => accepted.delete(session));
  });
  server.on('stream', (stream, headers) => forward(pool, stream, headers));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: pool.counts,
    close: async () => {
      pool.close();
      for (const session of [...accepted]) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
