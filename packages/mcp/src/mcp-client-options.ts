import { ConfigurationError } from '@skein/core';
import type { Tool } from '@modelcontextprotocol/client';

/** Start an MCP server as a child process and talk to it over its stdin and stdout. */
export interface McpStdioTransportOptions {
  /** The executable, e.g. `'npx'` or `process.execPath`. */
  command: string;
  /** Its arguments. */
  args?: string[];
  /** Variables added to the SDK's safe default environment (`HOME`, `PATH`, `USER`, ...). */
  env?: Record<string, string>;
  /** Working directory of the server; default the current one. */
  cwd?: string;
  /** Where the server's stderr goes besides the last lines kept for error messages. Default `'inherit'`. */
  stderr?: 'inherit' | 'ignore';
}

/** Talk to an MCP server over streamable HTTP. */
export interface McpHttpTransportOptions {
  /** The server's MCP endpoint, e.g. `https://example.com/mcp`. */
  url: string | URL;
  /** Headers sent with every request (an `Authorization` bearer token, an API key). */
  headers?: Record<string, string>;
}

/** Which server to reach and how. */
export type McpTransportOptions = McpStdioTransportOptions | McpHttpTransportOptions;

/** What a tool filter sees: the tool as the MCP server lists it. */
export type McpToolDefinition = Tool;

/** Which tools to offer, and under what names. Given to the client, or per `listTools()` call. */
export interface McpToolSelection {
  /** Only these tools (MCP names, before the prefix). Default: all. */
  allowedTools?: readonly string[];
  /** Only tools for which this returns true (applied after `allowedTools`). */
  toolFilter?: (tool: McpToolDefinition) => boolean;
  /** Put before every tool name, joined with `_` (`prefix: 'fs'` turns `read` into `fs_read`). */
  prefix?: string;
}

/** Options of `new McpClient({...})`. Only `transport` is required. */
export interface McpClientOptions extends McpToolSelection {
  /** The server to connect to: stdio `{ command, args, env, cwd }` or streamable HTTP `{ url, headers }`. */
  transport: McpTransportOptions;
  /** A name for the server in error messages. Default: the command's file name, or the URL's host. */
  name?: string;
  /** Longest wait for one tool call, in ms; the model then gets an error result. Default 60 000. */
  timeoutMs?: number;
  /** Longest wait for the connection (process start and MCP handshake), in ms. Default 30 000. */
  connectTimeoutMs?: number;
  /** Reconnect (restart a stdio server) on the next call after the connection was lost. Default true. */
  reconnect?: boolean;
  /** Called when the server says its tool list changed; call `listTools()` again to pick up new tools. */
  onToolsChanged?: () => void;
}

const KNOWN = new Set([
  'transport',
  'name',
  'timeoutMs',
  'connectTimeoutMs',
  'reconnect',
  'onToolsChanged',
  'allowedTools',
  'toolFilter',
  'prefix',
]);

/** True for stdio transport options. */
export function isStdio(transport: McpTransportOptions): transport is McpStdioTransportOptions {
  return 'command' in transport;
}

function checkMs(value: number | undefined, name: string): void {
  if (value !== undefined && (!Number.isFinite(value) || value <= 0)) {
    throw new ConfigurationError(
      `McpClient: ${name} must be a positive number of milliseconds (got ${String(value)}).`,
    );
  }
}

/** Checks a tool selection; throws `ConfigurationError` saying what to change. */
export function checkSelection(selection: McpToolSelection, where: string): void {
  if (selection.allowedTools !== undefined && !Array.isArray(selection.allowedTools)) {
    throw new ConfigurationError(`${where}: allowedTools must be an array of MCP tool names.`);
  }
  if (selection.toolFilter !== undefined && typeof selection.toolFilter !== 'function') {
    throw new ConfigurationError(`${where}: toolFilter must be a function (tool) => boolean.`);
  }
  if (selection.prefix !== undefined && !/^[a-zA-Z0-9_-]{1,40}$/.test(selection.prefix)) {
    throw new ConfigurationError(
      `${where}: prefix ${JSON.stringify(selection.prefix)} must be 1-40 of a-z, A-Z, 0-9, "_" and "-".`,
    );
  }
}

/** Checks client options and says what to change; throws `ConfigurationError`. */
export function checkClientOptions(options: McpClientOptions | undefined): asserts options is McpClientOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError(
      "new McpClient() takes an options object, e.g. new McpClient({ transport: { command: 'npx', args: ['my-server'] } }).",
    );
  }
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0)
    throw new ConfigurationError(
      `Unknown McpClient option(s): ${unknown.join(', ')}. Known options: ${[...KNOWN].join(', ')}.`,
    );
  const t = options.transport as Partial<McpStdioTransportOptions & McpHttpTransportOptions> | undefined;
  const hasCommand = typeof t?.command === 'string' && t.command.length > 0;
  const hasUrl = t?.url !== undefined;
  if (!t || hasCommand === hasUrl) {
    throw new ConfigurationError(
      'McpClient: transport must be either stdio { command, args?, env?, cwd? } or streamable HTTP { url, headers? } (exactly one of command and url).',
    );
  }
  if (hasUrl) {
    let url: URL;
    try {
      url = new URL(t.url as string | URL);
    } catch {
      throw new ConfigurationError(`McpClient: transport.url ${JSON.stringify(String(t.url))} is not a valid URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ConfigurationError(`McpClient: transport.url must be http or https (got ${url.protocol}).`);
  }
  checkMs(options.timeoutMs, 'timeoutMs');
  checkMs(options.connectTimeoutMs, 'connectTimeoutMs');
  checkSelection(options, 'McpClient');
}
