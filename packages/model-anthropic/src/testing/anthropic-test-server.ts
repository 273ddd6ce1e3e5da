import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeSse, errorBody, type SseEvent } from './sse-script.js';

/** A streamed 200 answer: events written as SSE, optionally slowly, stalled or cut. */
export interface StreamReply {
  /** The events to send; a string is written verbatim (for malformed or hand-made bytes). */
  events: (SseEvent | string)[];
  /** Extra response headers (e.g. `request-id`). */
  headers?: Record<string, string>;
  /** Write the bytes in pieces of this size (splitting events mid-line) instead of per event. */
  splitBytes?: number;
  /** Wait this long before each write, in ms; with a delay each event is its own write. Default 0 (one write). */
  chunkDelayMs?: number;
  /** After this many events, destroy the socket (a cut connection). */
  cutAfter?: number;
  /** After this many events, send nothing more and keep the connection open until the client leaves. */
  stallAfter?: number;
}

/** A non-streamed reply, typically an error: status, JSON body, headers. */
export interface HttpReply {
  /** HTTP status, e.g. 429. */
  status: number;
  /** The JSON body, e.g. `errorBody('rate_limit_error', '...')`. */
  body: unknown;
  /** Response headers, e.g. `{ 'retry-after': '7' }`. */
  headers?: Record<string, string>;
}

/** What the server answers one request with; a function sees the request first. */
export type ScriptedReply = StreamReply | HttpReply | ((request: RecordedHttpRequest) => StreamReply | HttpReply);

/** One request as the server received it. */
export interface RecordedHttpRequest {
  /** HTTP method, e.g. `POST`. */
  method: string;
  /** Path and query, e.g. `/v1/messages`. */
  path: string;
  /** Request headers, lower-cased names. */
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (`undefined` when it was not JSON). */
  body: unknown;
}

/** Options of {@link AnthropicTestServer.start}. */
export interface AnthropicTestServerOptions {
  /** Keep every request body in `requests`. Default true; turn off for benchmarks. */
  record?: boolean;
  /** Replay the script from the start when it runs out instead of answering 500. Default false. */
  loop?: boolean;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A loopback server that speaks Anthropic's Messages API (`POST /v1/messages`, SSE) byte for byte,
 * answering each request with the next scripted reply. Point the real SDK at it with
 * `new Anthropic({ apiKey: 'dummy', baseURL: server.url })`.
 * @example
 * const server = await AnthropicTestServer.start();
 * server.enqueue({ events: answerEvents({ blocks: [{ text: ['Hel', 'lo'] }] }) });
 * const model = new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: server.url } });
 * await server.close();
 */
export class AnthropicTestServer {
  /** Requests received, in order. */
  readonly requests: RecordedHttpRequest[] = [];
  readonly #server: Server;
  readonly #script: ScriptedReply[] = [];
  readonly #options: Required<AnthropicTestServerOptions>;
  #next = 0;
  #closedConnections = 0;
  readonly #open = new Set<ServerResponse>();

  private constructor(server: Server, options: AnthropicTestServerOptions) {
    this.#server = server;
    this.#options = { record: options.record ?? true, loop: options.loop ?? false };
  }

  /** Starts a server on 127.0.0.1 on a free port. */
  static async start(options: AnthropicTestServerOptions = {}): Promise<AnthropicTestServer> {
    let self: AnthropicTestServer | undefined;
    const server = createServer((req, res) => void self?.handle(req, res));
    self = new AnthropicTestServer(server, options);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return self;
  }

  /** The base URL to give the SDK (no `/v1`). */
  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Streamed responses whose client went away before the server finished (aborts, stalls). */
  get clientDisconnects(): number {
    return this.#closedConnections;
  }

  /** Adds replies to the end of the script. */
  enqueue(...replies: ScriptedReply[]): this {
    this.#script.push(...replies);
    return this;
  }

  /** The body of the `n`th request (0-based; negative counts from the end). */
  body(n = -1): Record<string, unknown> {
    const request = this.requests.at(n);
    if (!request) throw new Error(`No request #${n}: the server received ${this.requests.length}.`);
    return request.body as Record<string, unknown>;
  }

  /** Stops listening and drops open connections. */
  async close(): Promise<void> {
    for (const res of this.#open) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const recorded: RecordedHttpRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
    if (this.#options.record) this.requests.push(recorded);
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/messages')) {
      return this.sendJson(res, {
        status: 404,
        body: errorBody('not_found_error', `No route ${req.method} ${req.url}`),
      });
    }
    let reply = this.takeReply();
    if (typeof reply === 'function') reply = reply(recorded);
    if (!reply)
      return this.sendJson(res, {
        status: 500,
        body: errorBody('api_error', 'The test server has no scripted reply left.'),
      });
    if ('status' in reply) return this.sendJson(res, reply);
    await this.sendStream(res, reply);
  }

  private takeReply(): ScriptedReply | undefined {
    if (this.#next >= this.#script.length && this.#options.loop) this.#next = 0;
    return this.#script[this.#next++];
  }

  private sendJson(res: ServerResponse, reply: HttpReply): void {
    const payload = JSON.stringify(reply.body);
    res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': 'req_test', ...reply.headers });
    res.end(payload);
  }

  private async sendStream(res: ServerResponse, reply: StreamReply): Promise<void> {
    this.#open.add(res);
    let finished = false;
    res.on('close', () => {
      this.#open.delete(res);
      if (!finished) this.#closedConnections++;
    });
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': 'req_test',
      ...reply.headers,
    });
    const events = reply.events.map((e) => (typeof e === 'string' ? e : encodeSse(e)));
    const limit = Math.min(events.length, reply.cutAfter ?? Infinity, reply.stallAfter ?? Infinity);
    const pieces = splitPieces(events.slice(0, limit), reply.splitBytes, (reply.chunkDelayMs ?? 0) > 0);
    for (const piece of pieces) {
      if (res.destroyed) return;
      if (reply.chunkDelayMs) await delay(reply.chunkDelayMs);
      if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
    }
    if (reply.cutAfter !== undefined && reply.cutAfter < events.length) {
      await new Promise((resolve) => res.write('', resolve)); // flush what was sent, then cut
      await delay(5);
      res.socket?.destroy();
      return;
    }
    if (reply.stallAfter !== undefined && reply.stallAfter < events.length) return;
    finished = true;
    res.end();
  }
}

function splitPieces(events: string[], size: number | undefined, perEvent: boolean): Buffer[] {
  if (!size)
    return perEvent
      ? events.map((e) => Buffer.from(e, 'utf8'))
      : events.length > 0
        ? [Buffer.from(events.join(''), 'utf8')]
        : [];
  // Byte offsets: a piece may end mid-line or mid-character, as TCP may deliver it.
  const bytes = Buffer.from(events.join(''), 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}
