/**
 * `serveMcp`: agents, graphs and swarms as MCP tools, on a skein server. The server (`createServer`
 * of `@skein/server`, on the same options) runs every turn; the MCP door turns tool calls into its
 * requests. Over streamable HTTP the endpoint is mounted on the server's app (`/mcp` next to `/v1`);
 * over stdio (or any MCP transport) `connect` serves one client.
 */
import { ConfigurationError } from '@skein/core';
import type { McpServer, Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createServer, DEFAULT_LIMITS, type ServerOptions, type SkeinServer } from '@skein/server';
import { HttpEndpoint } from './http-endpoint.js';
import { buildMcpServer, servedTargets } from './mcp-tools.js';
import type { ServeMcpOptions } from './options.js';
import { ServerDoor } from './server-door.js';

/** One connected MCP client (stdio, or another transport given to `connect`). */
export interface McpConnection {
  /** Ends the connection (a running turn goes on; its conversation keeps it). */
  close(): Promise<void>;
}

/** Options of a connection made with `connect` or `stdio`. */
export interface ConnectOptions {
  /**
   * Headers every call of this connection carries to `authorize` (a stdio client has no HTTP request):
   * e.g. `{ authorization: \`Bearer ${process.env.DESK_KEY}\` }`. Default none.
   */
  headers?: Record<string, string>;
}

/** What `serveMcp` returns. */
export interface SkeinMcpServer {
  /** The skein server (its `/v1` routes) with the MCP endpoint mounted: `serve(mcp.app)` of `@skein/server`. */
  readonly app: SkeinServer;
  /** Where the streamable HTTP endpoint is (`/mcp`). */
  readonly path: string;
  /** Open streamable HTTP sessions. */
  readonly sessionCount: number;
  /** Serves one MCP client over `transport` (an SDK `Transport`). */
  connect(transport: Transport, options?: ConnectOptions): Promise<McpConnection>;
  /** Serves the MCP client on this process's stdin and stdout (what `skein mcp serve` does). */
  stdio(options?: ConnectOptions): Promise<McpConnection>;
  /** Closes every MCP session and connection, and stops the server (`app.skein.stop`). */
  close(): Promise<void>;
}

/**
 * Serves agents, graphs and swarms as MCP tools: one tool per target, named as it is served, taking
 * `{ message, conversationId?, answers? }`; conversations are sessions in the configured store.
 * @example
 * const mcp = serveMcp({
 *   graphs: { desk: ({ sessionManager }) => buildDeskGraph({ sessionManager }) },
 *   sessions: (id) => new FileSessionManager({ sessionId: id, storageDir: './sessions' }),
 * });
 * await mcp.stdio();          // a desktop client starts this process
 * // or: await serve(mcp.app) // streamable HTTP at /mcp, next to the /v1 routes
 */
export function serveMcp(options: ServeMcpOptions): SkeinMcpServer {
  const path = options.path ?? '/mcp';
  if (!/^\/[A-Za-z0-9/_-]*$/.test(path) || path.startsWith('/v1'))
    throw new ConfigurationError(
      `serveMcp: path ${JSON.stringify(path)} must start with / and not with /v1 (default /mcp).`,
    );
  const targets = servedTargets(options);
  const {
    path: _path,
    serverInfo: _info,
    descriptions: _d,
    sessionIdleMs: _i,
    maxReplayEvents: _m,
    ...server
  } = options;
  const app = createServer(server as ServerOptions);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const doorOf = (fallback: Headers) => (request: Request | undefined) =>
    new ServerDoor(app, request?.headers ?? fallback);
  const endpoint = new HttpEndpoint(options, limits, () => buildMcpServer(options, targets, doorOf(new Headers())));
  app.all(path, (c) => endpoint.handle(c.req.raw));
  const connections = new Set<McpServer>();
  const connect = async (transport: Transport, connectOptions: ConnectOptions = {}): Promise<McpConnection> => {
    const mcp = buildMcpServer(options, targets, doorOf(new Headers(connectOptions.headers)));
    connections.add(mcp);
    await mcp.connect(transport);
    return {
      close: async () => {
        connections.delete(mcp);
        await mcp.close();
      },
    };
  };
  return {
    app,
    path,
    get sessionCount() {
      return endpoint.sessionCount;
    },
    connect,
    stdio: (connectOptions) => connect(new StdioServerTransport(), connectOptions),
    close: async () => {
      await endpoint.close();
      await Promise.allSettled([...connections].map((c) => c.close()));
      connections.clear();
      await app.skein.stop({ graceMs: 0 });
    },
  };
}
