import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

/**
 * A loopback Bedrock Runtime server for tests and benchmarks (not part of the published package).
 * It speaks HTTP/2 cleartext (what the SDK's default Node handler uses), answers ConverseStream with
 * AWS event-stream frames and Converse with JSON, and records every request it receives.
 */

/** One frame of a ConverseStream answer: an event, an in-stream exception, or a pause. */
export type WireFrame = { event: string; body: unknown } | { exception: string; body: unknown } | { pauseMs: number };

/** What the server answers to one request. */
export type WireReply =
  | { frames: WireFrame[]; end?: 'close' | 'hang' | 'reset'; headers?: Record<string, string> }
  | { eventStream: Uint8Array; headers?: Record<string, string> }
  | { json: unknown; headers?: Record<string, string> }
  | { status: number; errorType: string; message: string; headers?: Record<string, string> };

/** A reply made from the request it answers (may take its time). */
export type WireReplyFunction = (request: WireRequest) => WireReply | Promise<WireReply>;

/** A request the server received. */
export interface WireRequest {
  method: string;
  path: string;
  headers: http2.IncomingHttpHeaders;
  body: unknown;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** Encodes one frame as the bytes of an AWS event-stream message. */
function encodeFrame(frame: { event: string; body: unknown } | { exception: string; body: unknown }): Uint8Array {
  const headers: MessageHeaders =
    'event' in frame
      ? { ':message-type': { type: 'string', value: 'event' }, ':event-type': { type: 'string', value: frame.event } }
      : {
          ':message-type': { type: 'string', value: 'exception' },
          ':exception-type': { type: 'string', value: frame.exception },
        };
  headers[':content-type'] = { type: 'string', value: 'application/json' };
  return codec.encode({ headers, body: fromUtf8(JSON.stringify(frame.body)) });
}

/** Encodes frames (pauses skipped) as one buffer of event-stream bytes, to answer many requests cheaply. */
export function encodeFrames(frames: WireFrame[]): Uint8Array {
  return Buffer.concat(frames.flatMap((frame) => ('pauseMs' in frame ? [] : [encodeFrame(frame)])));
}

/** A scriptable Bedrock Runtime server on 127.0.0.1. */
export class BedrockWireServer {
  /** Requests received, in order. */
  readonly requests: WireRequest[] = [];
  /** Replies still to give, in order; when empty the server gives `fallback`, else answers 500. */
  readonly replies: (WireReply | WireReplyFunction)[] = [];
  /** The reply when the queue is empty (benchmarks answer every request alike; a function answers each request as it sees fit). */
  fallback: WireReply | WireReplyFunction | undefined;
  /** Whether requests are kept in `requests` (turn off for long runs). */
  record = true;
  readonly #server: http2.Http2Server;
  readonly #sessions = new Set<http2.ServerHttp2Session>();
  #requestCount = 0;
  port = 0;

  constructor() {
    this.#server = http2.createServer();
    this.#server.on('session', (session) => {
      this.#sessions.add(session);
      session.on('close', () => this.#sessions.delete(session));
    });
    this.#server.on('request', (req, res) => void this.#handle(req, res));
  }

  /** The endpoint to give the client, e.g. `http://127.0.0.1:PORT`. */
  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts listening on a free port. */
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  /** Queues replies for the next requests. */
  reply(...replies: (WireReply | WireReplyFunction)[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** Closes every connection (hanging streams included) and stops listening. */
  async close(): Promise<void> {
    for (const session of this.#sessions) session.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: http2.Http2ServerRequest, res: http2.Http2ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const request: WireRequest = {
      method: req.method,
      path: req.url,
      headers: req.headers,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    if (this.record) this.requests.push(request);
    const next = this.replies.shift() ?? this.fallback;
    const reply = typeof next === 'function' ? await next(request) : next;
    const requestId = `req-${++this.#requestCount}`;
    if (!reply)
      return this.#error(res, requestId, {
        status: 500,
        errorType: 'InternalServerException',
        message: 'No scripted reply left.',
      });
    if ('status' in reply) return this.#error(res, requestId, reply);
    if ('json' in reply) {
      res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': requestId, ...reply.headers });
      res.end(JSON.stringify(reply.json));
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/vnd.amazon.eventstream',
      'x-amzn-requestid': requestId,
      ...reply.headers,
    });
    if ('eventStream' in reply) {
      res.end(reply.eventStream);
      return;
    }
    for (const frame of reply.frames) {
      if (res.stream.destroyed) return;
      if ('pauseMs' in frame) await new Promise((resolve) => setTimeout(resolve, frame.pauseMs));
      else if (!res.write(encodeFrame(frame))) await new Promise((resolve) => res.stream.once('drain', resolve));
    }
    if (reply.end === 'hang') return;
    if (reply.end === 'reset') res.stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
    else res.end();
  }

  #error(
    res: http2.Http2ServerResponse,
    requestId: string,
    reply: { status: number; errorType: string; message: string; headers?: Record<string, string> },
  ): void {
    res.writeHead(reply.status, {
      'content-type': 'application/json',
      'x-amzn-requestid': requestId,
      'x-amzn-errortype': `${reply.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      ...reply.headers,
    });
    res.end(JSON.stringify({ message: reply.message }));
  }
}

/** Frames of a plain text answer streamed in `pieces`, with usage. */
export function textFrames(
  pieces: string[],
  usage: Record<string, number> = { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
): WireFrame[] {
  return [
    { event: 'messageStart', body: { role: 'assistant' } },
    ...pieces.map((text) => ({ event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { text } } })),
    { event: 'contentBlockStop', body: { contentBlockIndex: 0 } },
    { event: 'messageStop', body: { stopReason: 'end_turn' } },
    { event: 'metadata', body: { usage, metrics: { latencyMs: 42 } } },
  ];
}

/** Frames of a tool use at `index` whose JSON input arrives in `pieces`. */
export function toolUseFrames(index: number, toolUseId: string, name: string, pieces: string[]): WireFrame[] {
  return [
    { event: 'contentBlockStart', body: { contentBlockIndex: index, start: { toolUse: { toolUseId, name } } } },
    ...pieces.map((input) => ({
      event: 'contentBlockDelta',
      body: { contentBlockIndex: index, delta: { toolUse: { input } } },
    })),
    { event: 'contentBlockStop', body: { contentBlockIndex: index } },
  ];
}
