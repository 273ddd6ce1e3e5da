export { McpClient } from './mcp-client.js';
export type {
  McpClientOptions,
  McpHttpTransportOptions,
  McpStdioTransportOptions,
  McpToolDefinition,
  McpToolSelection,
  McpTransportOptions,
} from './mcp-client-options.js';
export type { McpAgentTool } from './mcp-tool.js';
export type { SkippedTool } from './tool-definitions.js';
export { McpConnectionError, McpError } from './mcp-errors.js';
export type { McpErrorOptions } from './mcp-errors.js';
export { documentName, toResultContent, toToolResult } from './result-mapping.js';
export { skeinToolName } from './tool-names.js';

// Serving: agents, graphs and swarms as MCP tools (stdio, or streamable HTTP on @skein/server)
export { serveMcp } from './serve/serve-mcp.js';
export type { ConnectOptions, McpConnection, SkeinMcpServer } from './serve/serve-mcp.js';
export type { McpAuthorize, McpRouteInfo, ServeMcpOptions } from './serve/options.js';
