import { ConfigurationError, errorToolResult, type JsonValue, type ToolContext, type ToolResult } from '@skein/core';
import { describeCallError, isTransportFailure } from './call-errors.js';
import { checkCall } from './call-input.js';
import { defaultServerName, describeServer, openConnection, type Connection } from './connection.js';
import {
  checkClientOptions,
  checkSelection,
  type McpClientOptions,
  type McpToolSelection,
} from './mcp-client-options.js';
import { McpError } from './mcp-errors.js';
import { createMcpTool, type McpAgentTool } from './mcp-tool.js';
import { toToolResult } from './result-mapping.js';
import { fetchCatalog, type SkippedTool, type ToolCatalog } from './tool-definitions.js';
import { skeinToolName } from './tool-names.js';

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/**
 * A client of one MCP server whose tools skein agents use. Connect, list the tools, give them to
 * agents; close it when the agents are done (that stops a stdio server).
 * @example
 * const client = new McpClient({ transport: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } });
 * const agent = new Agent({ model, tools: [...(await client.listTools())] });
 * try {
 *   console.log(String(await agent.invoke('Add 2 and 3 with your tools.')));
 * } finally {
 *   await client.close();
 * }
 */
export class McpClient {
  /** The server's name in messages. */
  readonly name: string;
  readonly #options: McpClientOptions;
  readonly #timeoutMs: number;
  readonly #server: string;
  #connection: Connection | undefined;
  #connecting: Promise<Connection> | undefined;
  #catalog: ToolCatalog | undefined;
  #stale = true;
  #closed = false;

  constructor(options: McpClientOptions) {
    checkClientOptions(options);
    this.#options = { ...options };
    this.name = options.name ?? defaultServerName(options.transport);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#server = describeServer(this.name, options.transport);
  }

  /** True while a session with the server is open. */
  get isConnected(): boolean {
    return this.#connection !== undefined && !this.#connection.lost;
  }

  /** The process id of the stdio server while one runs. */
  get pid(): number | undefined {
    return this.#connection?.lost === false ? this.#connection.pid : undefined;
  }

  /** Tools of the last listing that are not offered, each with the reason (e.g. an invalid input schema). */
  get skippedTools(): readonly SkippedTool[] {
    return this.#catalog?.skipped ?? [];
  }

  /** Starts the server (stdio) or opens the session (HTTP) and runs the MCP handshake. Idempotent. */
  async connect(): Promise<void> {
    this.#closed = false;
    await this.#connect();
  }

  /**
   * The server's tools as skein tools (connecting first if needed), filtered and named by the
   * client's selection, overridden field by field by `selection`.
   */
  async listTools(selection: McpToolSelection = {}): Promise<McpAgentTool[]> {
    checkSelection(selection, 'McpClient.listTools');
    this.#closed = false;
    const catalog = await this.#refresh(await this.#connect());
    const allowed = selection.allowedTools ?? this.#options.allowedTools;
    const filter = selection.toolFilter ?? this.#options.toolFilter;
    const prefix = selection.prefix ?? this.#options.prefix;
    const missing = (allowed ?? []).filter((n) => !catalog.tools.has(n));
    if (missing.length > 0) {
      const why = missing
        .map((n) => catalog.skipped.find((s) => s.name === n))
        .filter((s) => s !== undefined)
        .map((s) => ` ${s.name}: ${s.reason}.`)
        .join('');
      throw new ConfigurationError(
        `allowedTools names tool(s) the ${this.#server} does not offer: ${missing.join(', ')}.${why} It offers: ${[...catalog.tools.keys()].join(', ') || 'none'}.`,
      );
    }
    const tools: McpAgentTool[] = [];
    const byName = new Map<string, string>();
    for (const { definition } of catalog.tools.values()) {
      if (allowed && !allowed.includes(definition.name)) continue;
      if (filter && !filter(definition)) continue;
      const name = skeinToolName(definition.name, prefix);
      const clash = byName.get(name);
      if (clash !== undefined)
        throw new ConfigurationError(
          `MCP tools ${clash} and ${definition.name} of the ${this.#server} both become ${name}; filter one out.`,
        );
      byName.set(name, definition.name);
      tools.push(
        createMcpTool(definition, name, (mcpName, input, context) => this.#call(name, mcpName, input, context)),
      );
    }
    return tools;
  }

  /** Ends the session; a stdio server is stopped (end of input, then SIGTERM, then SIGKILL). Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#connecting;
    if (pending) await pending.catch(() => undefined);
    const connection = this.#connection;
    this.#connection = undefined;
    this.#stale = true;
    await connection?.close();
  }

  async #connect(): Promise<Connection> {
    const current = this.#connection;
    if (current && !current.lost) return current;
    if (!this.#connecting) {
      this.#connection = undefined;
      const opening = (async () => {
        await current?.close();
        const connection = await openConnection(
          this.name,
          this.#options.transport,
          this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
          {
            onToolsChanged: () => {
              this.#stale = true;
              this.#options.onToolsChanged?.();
            },
          },
        );
        this.#connection = connection;
        this.#stale = true;
        return connection;
      })();
      this.#connecting = opening;
      void opening
        .finally(() => {
          if (this.#connecting === opening) this.#connecting = undefined;
        })
        .catch(() => undefined);
    }
    return this.#connecting;
  }

  async #refresh(connection: Connection): Promise<ToolCatalog> {
    if (this.#catalog && !this.#stale) return this.#catalog;
    this.#stale = false;
    try {
      this.#catalog = await fetchCatalog(connection.client, this.#timeoutMs);
    } catch (error) {
      this.#stale = true;
      throw new McpError(
        `Could not list the tools of the ${this.#server}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    return this.#catalog;
  }

  async #call(name: string, mcpName: string, input: JsonValue, context: ToolContext): Promise<ToolResult> {
    const id = context.toolUse.toolUseId;
    if (this.#closed)
      return errorToolResult(id, `Tool ${name} cannot run: the client of the ${this.#server} was closed.`);
    const lostBefore = this.#connection?.lost === true;
    if (lostBefore && this.#options.reconnect === false) {
      return errorToolResult(id, `Tool ${name} cannot run: the ${this.#server} went away and reconnecting is off.`);
    }
    let connection: Connection;
    let catalog: ToolCatalog;
    try {
      connection = await this.#connect();
      catalog = await this.#refresh(connection);
    } catch (error) {
      return errorToolResult(id, `Tool ${name} cannot run: ${error instanceof Error ? error.message : String(error)}`);
    }
    const call = checkCall(catalog, name, mcpName, input, this.#server);
    if ('problem' in call) return errorToolResult(id, call.problem);
    try {
      const result = await connection.client.callTool(
        { name: mcpName, arguments: call.arguments },
        { signal: context.signal, timeout: this.#timeoutMs },
      );
      return toToolResult(id, result);
    } catch (error) {
      return this.#failed(error, name, connection, context);
    }
  }

  /** The error result of a call that went out and failed; a transport failure marks the connection lost. */
  async #failed(error: unknown, name: string, connection: Connection, context: ToolContext): Promise<ToolResult> {
    const id = context.toolUse.toolUseId;
    await new Promise((r) => setImmediate(r)); // let a dying server's last stderr lines arrive
    if (this.#closed)
      return errorToolResult(
        id,
        `Tool ${name} was stopped: the client of the ${this.#server} was closed during the call.`,
      );
    if (isTransportFailure(error, context.signal.aborted)) connection.markLost();
    return errorToolResult(
      id,
      describeCallError(error, {
        tool: name,
        server: this.#server,
        timeoutMs: this.#timeoutMs,
        aborted: context.signal.aborted,
        lost: connection.lost,
        reconnects: this.#options.reconnect !== false,
        stderr: connection.stderrTail(),
      }),
    );
  }
}
