import { errorMessage } from '@skein/core';
import { basename } from 'node:path';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AnswerWatchingTransport } from './answer-watch.js';
import { isStdio, type McpTransportOptions } from './mcp-client-options.js';
import { McpConnectionError } from './mcp-errors.js';

const STDERR_TAIL_BYTES = 2048;
const CLIENT_INFO = { name: 'skein', version: '0.1.0' };

/** What a connection tells its owner. */
export interface ConnectionEvents {
  /** The server sent `notifications/tools/list_changed`. */
  onToolsChanged: () => void;
}

/** One live session with an MCP server: the SDK client, and what is known about the process. */
export interface Connection {
  readonly client: Client;
  /** The stdio server's process id. */
  readonly pid: number | undefined;
  /** True once the transport closed, for whatever reason. */
  readonly lost: boolean;
  /** Marks the session as gone (a transport failure), so the next call opens a new one. */
  markLost(): void;
  /** The last lines the stdio server wrote to stderr ('' when none or HTTP). */
  stderrTail(): string;
  /** Ends the session; a stdio server gets end-of-input, then SIGTERM, then SIGKILL. */
  close(): Promise<void>;
}

/** Describes a server for messages: `"name" (command args)` or `"name" (url)`. */
export function describeServer(name: string, transport: McpTransportOptions): string {
  const where = isStdio(transport) ? [transport.command, ...(transport.args ?? [])].join(' ') : String(transport.url);
  return `MCP server "${name}" (${where})`;
}

/** The default name of a server: the command's file name, or the URL's host. */
export function defaultServerName(transport: McpTransportOptions): string {
  return isStdio(transport) ? basename(transport.command) : new URL(transport.url).host;
}

function buildTransport(options: McpTransportOptions, keepStderr: (chunk: Buffer) => void): Transport {
  if (!isStdio(options)) {
    const requestInit: RequestInit = options.headers ? { headers: options.headers } : {};
    return new AnswerWatchingTransport(new StreamableHTTPClientTransport(new URL(options.url), { requestInit }));
  }
  const transport = new StdioClientTransport({
    command: options.command,
    ...(options.args ? { args: options.args } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: 'pipe',
  });
  const forward = options.stderr !== 'ignore';
  transport.stderr?.on('data', (chunk: Buffer) => {
    keepStderr(chunk);
    if (forward) process.stderr.write(chunk);
  });
  return transport;
}

/**
 * Starts the transport and runs the MCP handshake within `timeoutMs`. On any failure the transport
 * is closed (a started child process is stopped) and a `McpConnectionError` says what happened.
 */
export async function openConnection(
  name: string,
  options: McpTransportOptions,
  timeoutMs: number,
  events: ConnectionEvents,
): Promise<Connection> {
  let tail = Buffer.alloc(0);
  const keep = (chunk: Buffer): void => {
    tail = Buffer.concat([tail, chunk]);
    if (tail.length > STDERR_TAIL_BYTES) tail = tail.subarray(tail.length - STDERR_TAIL_BYTES);
  };
  const transport = buildTransport(options, keep);
  const client = new Client(CLIENT_INFO);
  let lost = false;
  client.onclose = () => {
    lost = true;
  };
  client.onerror = () => {}; // failures surface through the requests that hit them
  client.setNotificationHandler('notifications/tools/list_changed', () => events.onToolsChanged());
  const stderrTail = (): string => tail.toString('utf8').trim();
  const close = async (): Promise<void> => {
    if (transport instanceof AnswerWatchingTransport && !lost) {
      await Promise.race([
        transport.terminateSession().catch(() => {}),
        new Promise((r) => setTimeout(r, 1000).unref()),
      ]);
    }
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
  };
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    await close();
    await new Promise((r) => setImmediate(r)); // let the last stderr chunks arrive
    const said = stderrTail();
    const reason = errorMessage(error);
    throw new McpConnectionError(
      `Could not connect to ${describeServer(name, options)}: ${reason}.${said ? ` Its stderr ended with: "${said}".` : ''}` +
        (isStdio(options)
          ? ' Check the command, its arguments and environment.'
          : ' Check the URL, the headers and that the server is running.'),
      { cause: error, ...(said ? { stderr: said } : {}) },
    );
  }
  return {
    client,
    pid: transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined,
    get lost() {
      return lost;
    },
    markLost: () => {
      lost = true;
    },
    stderrTail,
    close,
  };
}
