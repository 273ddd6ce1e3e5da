import type { AgentTool, JsonValue, ToolContext, ToolResult } from '@skein/core';
import type { McpToolDefinition } from './mcp-client-options.js';

/** Runs one call of an MCP tool by its MCP name; never throws for the server's faults. */
export type McpToolCaller = (mcpName: string, input: JsonValue, context: ToolContext) => Promise<ToolResult>;

/** An MCP tool as a skein tool, with the MCP tool it calls. */
export interface McpAgentTool extends AgentTool {
  /** The tool's name on the MCP server (before prefixing). */
  readonly mcpName: string;
}

/**
 * Wraps an MCP tool as a skein `AgentTool`. The input schema goes to the model as the server wrote
 * it; the call (validation, timeout, cancellation, result mapping) is the client's.
 */
export function createMcpTool(definition: McpToolDefinition, name: string, call: McpToolCaller): McpAgentTool {
  const description = definition.description ?? definition.title ?? `The ${definition.name} tool of an MCP server.`;
  return {
    name,
    mcpName: definition.name,
    spec: { name, description, inputSchema: { json: definition.inputSchema as Record<string, unknown> } },
    invoke: (input: JsonValue, context: ToolContext): Promise<ToolResult> => call(definition.name, input, context),
  };
}
