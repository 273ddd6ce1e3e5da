import http2 from 'node:http2';

/** How long a worker that refused or dropped a connection is skipped. */
const DOWN_MS = 1_000;

/**
 * The workers behind a round-robin proxy: whose turn it is, which are down for now, and one HTTP/2
 * session to each. A worker that refused or dropped a connection is skipped for a second (a load
 * balancer's health check, crudely).
 */
export class WorkerPool {
  /** Streams sent to each worker so far, in the order of the workers. */
  readonly counts: number[];
  readonly #workers: readonly string[];
  readonly #sessions = new Map<string, http2.ClientHttp2Session>();
  readonly #downUntil = new Map<string, number>();
  #next = 0;
  /** Per service: the worker whose turn it is next (a service first seen starts at the pool's turn). */
  readonly #nextOf = new Map<string, number>();
  #closing = false;

  constructor(workers: readonly string[]) {
    this.#workers = workers;
    this.counts = workers.map(() => 0);
  }

  /**
   * The URL of the next worker in `service`'s turn that is not marked down (any, when all are), counted
   * as sent to. Turns are kept per service so that one service's invocations alternate even when
   * another's streams (a run resuming after each call it made) fall between them.
   */
  take(service = ''): string {
    const at = this.#pick(service);
    this.#next = (at + 1) % this.#workers.length;
    this.#nextOf.set(service, this.#next);
    this.counts[at] = (this.counts[at] ?? 0) + 1;
    return this.#workers[at] as string;
  }

  /** Skips the worker at `url` for a while. */
  markDown(url: string): void {
    this.#downUntil.set(url, Date.now() + DOWN_MS);
  }

  /** The open session to the worker at `url`, or a new one. */
  session(url: string): http2.ClientHttp2Session {
    const open = this.#sessions.get(url);
    if (open && !open.closed && !open.destroyed) return open;
    const session = http2.connect(url);
    // A worker died (reset, refused): the streams on it fail and Restate retries them, here on another worker.
    const lost = (): void => {
      if (this.#sessions.get(url) === session) this.#sessions.delete(url);
      if (!this.#closing) this.markDown(url);
    };
    session.on('error', lost);
    session.on('close', lost);
    this.#sessions.set(url, session);
    return session;
  }

  /** Cuts every session to the workers. */
  close(): void {
    this.#closing = true;
    for (const session of [...this.#sessions.values()]) session.destroy();
  }

  #pick(service: string): number {
    const workers = this.#workers;
    const start = this.#nextOf.get(service) ?? this.#next;
    for (let tried = 0; tried < workers.length; tried++) {
      const at = (start + tried) % workers.length;
      if ((this.#downUntil.get(workers[at] as string) ?? 0) <= Date.now()) return at;
    }
    return start % workers.length;
  }
}
