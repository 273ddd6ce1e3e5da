import { SkeinError, type SkeinErrorOptions } from '@skein/core';

/** Options of {@link McpError}. */
export interface McpErrorOptions extends SkeinErrorOptions {
  /** The last lines the stdio server wrote to stderr, when there were any. */
  stderr?: string;
}

/** Something went wrong talking to an MCP server; `stderr` holds the server's last words (stdio). */
export class McpError extends SkeinError {
  readonly stderr: string | undefined;

  constructor(message: string, options: McpErrorOptions = {}, code = 'mcp') {
    super(message, options, code);
    this.stderr = options.stderr;
  }
}

/** The MCP server could not be started or reached, or did not complete the handshake in time. */
export class McpConnectionError extends McpError {
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options, 'mcp_connection');
  }
}
