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
