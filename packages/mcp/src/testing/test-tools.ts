import { fromJsonSchema, type CallToolResult, type McpServer, type ServerContext } from '@modelcontextprotocol/server';

type Args = Record<string, unknown>;
type Handler = (args: Args, ctx: ServerContext) => CallToolResult | Promise<CallToolResult>;
type Schema = ReturnType<typeof fromJsonSchema<Args>>;
type RegisteredTool = ReturnType<McpServer['registerTool']>;

/** An object schema with these properties. */
export const object = (properties: Record<string, unknown>, required: string[] = []): Schema =>
  fromJsonSchema<Args>({ type: 'object', properties, required } as Parameters<typeof fromJsonSchema>[0]);

/** A result of one text block. */
export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** The tools of one test server: registered in order, their calls counted, changed at run time. */
export class TestTools {
  /** Calls of every tool but `stats`, and calls that noticed their cancellation. */
  readonly stats = { calls: 0, cancelled: 0 };
  /** The server the tools are registered on. */
  readonly server: McpServer;
  readonly #registered = new Map<string, RegisteredTool>();

  constructor(server: McpServer) {
    this.server = server;
  }

  /** Registers a tool whose calls count in `stats` (but those of `stats` itself). */
  register(name: string, description: string, input: Schema, handler: Handler, output?: Schema): void {
    const config = { description, inputSchema: input, ...(output ? { outputSchema: output } : {}) };
    this.#registered.set(
      name,
      this.server.registerTool(name, config, (args: Args, ctx: ServerContext) => {
        if (name !== 'stats') this.stats.calls++;
        return handler(args, ctx);
      }),
    );
  }

  has(name: string): boolean {
    return this.#registered.has(name);
  }

  /** Gives a tool a new input schema. */
  changeInput(name: string, input: Schema): void {
    this.#registered.get(name)?.update({ paramsSchema: input });
  }

  remove(name: string): void {
    this.#registered.get(name)?.remove();
    this.#registered.delete(name);
  }
}
