/**
 * The streamable HTTP endpoint (`/mcp`) on the skein server's app: every request is authorized
 * (`authorize(request, { action: 'mcp', ... })`), its body bounded (`limits.maxBodyBytes`,
 * `maxJsonDepth`) before it is read, and an MCP session belongs to the principal that opened it: a
 * session id used by another principal is not found. Each session has its transport, its MCP server
 * and a replay store for dropped streams; idle sessions are closed.
 */
import { randomUUID } from 'node:crypto';
import { jsonDeeperThan, principalId, readBodyBytes, type Principal } from '@skein/core';
import {
  isInitializeRequest,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Limits } from '@skein/server';
import { ReplayStore } from './event-store.js';
import type { ServeMcpOptions } from './options.js';

/** Builds the MCP server of one HTTP session. */
export type McpServerBuilder = () => McpServer;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  owner: string;
  lastSeen: number;
}

/** A JSON-RPC error response with an HTTP status. */
function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

/** The MCP endpoint's sessions and request handler. */
export class HttpEndpoint {
  readonly #options: ServeMcpOptions;
  readonly #limits: Limits;
  readonly #build: McpServerBuilder;
  readonly #sessions = new Map<string, Session>();
  readonly #sweep: NodeJS.Timeout;

  constructor(options: ServeMcpOptions, limits: Limits, build: McpServerBuilder) {
    this.#options = options;
    this.#limits = limits;
    this.#build = build;
    const idle = options.sessionIdleMs ?? 30 * 60_000;
    this.#sweep = setInterval(() => this.#closeIdle(idle), Math.min(idle, 60_000));
    this.#sweep.unref();
  }

  /** Open MCP sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Answers one request to the endpoint. */
  async handle(request: Request): Promise<Response> {
    const owner = await this.#authorize(request);
    if (owner instanceof Response) return owner;
    let parsedBody: unknown;
    if (request.method === 'POST') {
      const bytes = await readBodyBytes(request, this.#limits.maxBodyBytes);
      if (!bytes)
        return rpcError(
          413,
          -32600,
          `The request body is larger than ${this.#limits.maxBodyBytes} bytes (limits.maxBodyBytes).`,
        );
      const text = new TextDecoder().decode(bytes);
      if (jsonDeeperThan(text, this.#limits.maxJsonDepth))
        return rpcError(
          400,
          -32600,
          `The JSON body nests deeper than ${this.#limits.maxJsonDepth} levels (limits.maxJsonDepth).`,
        );
      try {
        parsedBody = JSON.parse(text);
      } catch {
        return rpcError(400, -32700, 'Parse error: the body is not JSON.');
      }
    }
    const id = request.headers.get('mcp-session-id');
    let session = id === null ? undefined : this.#sessions.get(id);
    if (id !== null && session?.owner !== owner) return rpcError(404, -32001, 'Session not found');
    if (!session) {
      if (request.method !== 'POST' || !isInitializeRequest(parsedBody))
        return rpcError(400, -32000, 'Bad Request: no MCP session; start one with an initialize request.');
      session = await this.#open(owner);
    }
    session.lastSeen = Date.now();
    return session.transport.handleRequest(request, parsedBody === undefined ? {} : { parsedBody });
  }

  /** Closes every session. */
  async close(): Promise<void> {
    clearInterval(this.#sweep);
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(all.map((s) => s.transport.close()));
  }

  async #authorize(request: Request): Promise<string | Response> {
    const authorize = this.#options.authorize;
    if (!authorize) return 'anonymous';
    let principal: Principal | undefined;
    try {
      principal = await authorize(request, { action: 'mcp', kind: 'mcp', name: this.#options.path ?? '/mcp' });
    } catch (error) {
      const why = error instanceof Error && error.message ? ` (${error.message.slice(0, 200)})` : '';
      return rpcError(403, -32001, `Forbidden: the request is not allowed${why}.`);
    }
    if (principal === undefined)
      return rpcError(
        401,
        -32001,
        'Unauthorized: the request has no valid credentials; send them (e.g. an authorization header).',
      );
    return principalId(principal);
  }

  async #open(owner: string): Promise<Session> {
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new ReplayStore(this.#options.maxReplayEvents ?? 1_000),
      onsessioninitialized: (sid) => void this.#sessions.set(sid, session),
      onsessionclosed: (sid) => void this.#sessions.delete(sid),
    });
    const session: Session = { transport, owner, lastSeen: Date.now() };
    await this.#build().connect(transport);
    return session;
  }

  #closeIdle(idleMs: number): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      if (now - session.lastSeen < idleMs) continue;
      this.#sessions.delete(id);
      void session.transport.close().catch(() => undefined);
    }
  }
}
