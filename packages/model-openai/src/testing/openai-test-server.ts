/**
 * A loopback OpenAI server for tests: node:http on 127.0.0.1 (a free port), answering each POST with
 * the next scripted reply — a stream (optionally split at byte offsets, cut, closed early or stalled)
 * or an HTTP error — and recording each request's body. A stream to `POST .../chat/completions` is
 * written as Chat Completions chunks (`data: <json>` lines, then `data: [DONE]`); one to
 * `POST .../responses` as Responses API events (`event: <type>` and `data: <json>` lines, no `[DONE]`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeChunks, type Chunk } from './chat-chunks.js';
import { encodeResponseEvents } from './response-events.js';

export interface StreamReply {
  /** Chat Completions chunks (`chatChunks()`), or Responses API events (`responseEvents()`) for `/responses`. */
  chunks: Chunk[];
  /** Write the bytes in pieces of this size (splitting chunks mid-line). */
  splitBytes?: number;
  /** Destroy the socket after this many chunks (a cut connection). */
  cutAfter?: number;
  /** End the response after this many chunks (without `[DONE]` for Chat Completions): a server that closes early. */
  closeAfter?: number;
  /** Wait forever after this many chunks. */
  stallAfter?: number;
}

export interface HttpReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ScriptedReply = StreamReply | HttpReply;

/** A reply, or a function that makes one from the request it answers (to route by the request's content). */
export type ReplySource = ScriptedReply | ((request: RecordedRequest) => ScriptedReply);

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** The loopback server: `await OpenAITestServer.start()`, `enqueue(...)` replies, read `requests`, `close()`. */
export class OpenAITestServer {
  readonly requests: RecordedRequest[] = [];
  readonly #queue: ReplySource[] = [];
  readonly #server: http.Server;
  readonly #sockets = new Set<import('node:net').Socket>();
  url = '';

  private constructor() {
    this.#server = http.createServer((req, res) => void this.#handle(req, res));
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  /** Starts a server on a free loopback port; `url` ends in `/v1`. */
  static async start(): Promise<OpenAITestServer> {
    const server = new OpenAITestServer();
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    server.url = `http://127.0.0.1:${(server.#server.address() as AddressInfo).port}/v1`;
    return server;
  }

  /** Queues replies, answered one per request in order. */
  enqueue(...replies: ReplySource[]): this {
    this.#queue.push(...replies);
    return this;
  }

  /** Destroys open connections and stops listening. */
  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const text = Buffer.concat(parts).toString('utf8');
    const request: RecordedRequest = {
      path: req.url ?? '',
      headers: req.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
    this.requests.push(request);
    const next = this.#queue.shift();
    const reply = typeof next === 'function' ? next(request) : next;
    if (!reply)
      return this.#json(res, 500, {
        error: { message: 'No scripted reply left.', type: 'server_error', param: null, code: null },
      });
    if ('status' in reply) return this.#json(res, reply.status, reply.body, reply.headers);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-request-id': `req_${this.requests.length}`,
    });
    const limit = reply.cutAfter ?? reply.closeAfter ?? reply.stallAfter;
    const chunks = limit === undefined ? reply.chunks : reply.chunks.slice(0, limit);
    const responses = request.path.split('?')[0]?.endsWith('/responses') === true;
    const bytes = Buffer.from(responses ? encodeResponseEvents(chunks) : encodeChunks(chunks, limit === undefined));
    const size = reply.splitBytes ?? bytes.length;
    for (let i = 0; i < bytes.length; i += size) {
      const piece = bytes.subarray(i, i + size);
      // Before a cut, each piece is flushed to the socket first, so the client gets everything sent before the reset.
      if (reply.cutAfter !== undefined) await new Promise<void>((resolve) => res.write(piece, () => resolve()));
      else res.write(piece);
      if (reply.splitBytes) await new Promise((resolve) => setImmediate(resolve));
    }
    if (reply.cutAfter !== undefined) return void req.socket.destroy();
    if (reply.stallAfter !== undefined) return;
    res.end();
  }

  #json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': `req_${this.requests.length}`,
      ...headers,
    });
    res.end(JSON.stringify(body));
  }
}
