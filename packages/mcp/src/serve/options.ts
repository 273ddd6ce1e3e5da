/** What `serveMcp` takes: the server's options (agents, graphs, swarms, sessions, authorize...) and the MCP door's own. */
import type { Principal } from '@skein/core';
import type { RouteInfo, ServerOptions } from '@skein/server';

/** How `authorize` sees a request to the MCP endpoint itself (initialize, tools/list, a session's stream). */
export interface McpRouteInfo {
  action: 'mcp';
  kind: 'mcp';
  /** The endpoint's path (`/mcp`). */
  name: string;
}

/** `authorize` of the MCP door: the server's, also called for requests to the MCP endpoint (`route.action === 'mcp'`). */
export type McpAuthorize = (
  request: Request,
  route: RouteInfo | McpRouteInfo,
) => Principal | undefined | Promise<Principal | undefined>;

/** Options of {@link serveMcp}. */
export interface ServeMcpOptions extends Omit<ServerOptions, 'authorize'> {
  /**
   * Who sends a request (see `@skein/server`): called for every request to the MCP endpoint
   * (`route.action === 'mcp'`) and for every turn a tool call runs (`message`, `answers`, `cancel`...),
   * on the same HTTP request's headers. Without it every caller is `'anonymous'`.
   */
  authorize?: McpAuthorize;
  /** Where the streamable HTTP endpoint is mounted on the server's app. Default `/mcp`. */
  path?: string;
  /** The server's name and version in the MCP handshake. Default `{ name: 'skein', version: '0.1.0' }`. */
  serverInfo?: { name: string; version: string };
  /** A description per tool (by target name), shown to the client's model. Default: says what it is and how to continue. */
  descriptions?: Record<string, string>;
  /** How long an MCP session may stay idle before it is dropped, ms. Default 30 minutes. */
  sessionIdleMs?: number;
  /** Events kept per MCP session for clients that resume a dropped stream (`Last-Event-ID`). Default 1,000. */
  maxReplayEvents?: number;
}
