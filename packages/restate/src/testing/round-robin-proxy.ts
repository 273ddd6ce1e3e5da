/**
 * A tiny HTTP/2 (cleartext) load balancer for loopback: Restate talks HTTP/2 to a deployment, and
 * one deployment has one URL, so to spread invocations over several worker processes on one
 * machine register this proxy's URL. Each HTTP/2 stream (one invocation attempt, or a discovery
 * request) goes to the next worker in turn; bodies stream both ways. A worker that refused or
 * dropped a connection is skipped for a second (a load balancer's health check, crudely), so
 * Restate's retries land on the workers that are up. For tests and benchmarks: in production put
 * any HTTP/2-capable load balancer (Envoy, nginx `grpc_pass`, a cloud LB) there.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';

const { NGHTTP2_CANCEL, NGHTTP2_INTERNAL_ERROR } = http2.constants;

/** A running round-robin proxy. */
export interface RoundRobinProxy {
  /** The URL to register with Restate, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Streams sent to each worker so far, in the order of `workers`. */
  readonly counts: readonly number[];
  close(): Promise<void>;
}

/** Starts a proxy on a random 127.0.0.1 port in front of `workers` (URLs like `http://127.0.0.1:9080`). */
export async function startRoundRobinProxy(workers: readonly string[]): Promise<RoundRobinProxy> {
  if (workers.length === 0) throw new TypeError('startRoundRobinProxy needs at least one worker URL.');
  const sessions = new Map<string, http2.ClientHttp2Session>();
  const counts = workers.map(() => 0);
  let next = 0;
  let closing = false;
  const downUntil = new Map<string, number>();
  const markDown = (url: string): void => void downUntil.set(url, Date.now() + 1_000);
  /** The next worker in turn that is not marked down (any, when all are). */
  const pick = (): number => {
    for (let tried = 0; tried < workers.length; tried++) {
      const at = next++ % workers.length;
      if ((downUntil.get(workers[at] as string) ?? 0) <= Date.now()) return at;
    }
    return next++ % workers.length;
  };
  const sessionFor = (url: string): http2.ClientHttp2Session => {
    const open = sessions.get(url);
    if (open && !open.closed && !open.destroyed) return open;
    const session = http2.connect(url);
    // A worker died (reset, refused): the streams on it fail and Restate retries them, here on another worker.
    const lost = (): void => {
      if (sessions.get(url) === session) sessions.delete(url);
      if (!closing) markDown(url);
    };
    session.on('error', lost);
    session.on('close', lost);
    sessions.set(url, session);
    return session;
  };
  const server = http2.createServer();
  const accepted = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    accepted.add(session);
    session.on('error', () => undefined);
    session.on('close', () => accepted.delete(session));
  });
  server.on('stream', (stream, headers) => {
    const at = pick();
    const url = workers[at] as string;
    counts[at] = (counts[at] ?? 0) + 1;
    const forward: http2.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers))
      if (!name.startsWith(':') || name === ':method' || name === ':path') forward[name] = value;
    let upstream: http2.ClientHttp2Stream;
    try {
      upstream = sessionFor(url).request(forward);
    } catch {
      markDown(url);
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
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: async () => {
      closing = true;
      for (const session of [...sessions.values(), ...accepted]) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
