import { fromJsonSchema, McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import type { TestServerBehaviour } from './test-server-behaviour.js';

export type { TestServerBehaviour } from './test-server-behaviour.js';

/** A 1x1 transparent PNG, base64. */
const TEST_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

type Args = Record<string, unknown>;
type Handler = (args: Args, ctx: ServerContext) => CallToolResult | Promise<CallToolResult>;
type Schema = ReturnType<typeof fromJsonSchema<Args>>;

const object = (properties: Record<string, unknown>, required: string[] = []): Schema =>
  fromJsonSchema<Args>({ type: 'object', properties, required } as Parameters<typeof fromJsonSchema>[0]);

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}

/**
 * Builds the MCP server the package's tests and example run (over stdio or streamable HTTP): tools
 * that return text, structured content, an image, embedded resources and errors, a slow tool that
 * notices cancellation, one that hangs, one that kills its process, one that changes the tool list.
 */
export function createTestServer(behaviour: TestServerBehaviour = {}): McpServer {
  const server = new McpServer(
    { name: 'skein-test-server', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const stats = { calls: 0, cancelled: 0 };
  const tools = new Map<string, ReturnType<McpServer['registerTool']>>();
  const register = (name: string, description: string, input: Schema, handler: Handler, output?: Schema): void => {
    const config = { description, inputSchema: input, ...(output ? { outputSchema: output } : {}) };
    tools.set(
      name,
      server.registerTool(name, config, (args: Args, ctx: ServerContext) => {
        if (name !== 'stats') stats.calls++;
        return handler(args, ctx);
      }),
    );
  };

  register('echo', 'Returns the text it is given.', object({ text: { type: 'string' } }, ['text']), ({ text: t }) =>
    text(String(t)),
  );
  register(
    'add',
    'Adds two numbers.',
    object({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
    ({ a, b }) => {
      const sum = Number(a) + Number(b);
      return { content: [{ type: 'text', text: `${String(a)} + ${String(b)} = ${sum}` }], structuredContent: { sum } };
    },
    object({ sum: { type: 'number' } }, ['sum']),
  );
  register('picture', 'Returns a tiny PNG.', object({}), () => ({
    content: [
      { type: 'text', text: 'A 1x1 pixel:' },
      { type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' },
    ],
  }));
  register('documents', 'Returns embedded resources.', object({}), () => ({
    content: [
      {
        type: 'resource',
        resource: { uri: 'file:///notes/readme.md', mimeType: 'text/markdown', text: '# Notes\nhello' },
      },
      {
        type: 'resource',
        resource: {
          uri: 'file:///reports/q3.pdf',
          mimeType: 'application/pdf',
          blob: Buffer.from('%PDF-1.4 test').toString('base64'),
        },
      },
    ],
  }));
  register('fail', 'Reports a tool error.', object({ message: { type: 'string' } }, ['message']), ({ message }) => ({
    isError: true,
    content: [{ type: 'text', text: String(message) }],
  }));
  register(
    'slow',
    'Waits `ms` milliseconds unless cancelled.',
    object({ ms: { type: 'number' } }, ['ms']),
    async ({ ms }, ctx) => {
      const finished = await sleep(Number(ms), ctx.mcpReq.signal);
      if (!finished) stats.cancelled++;
      return text(finished ? `waited ${String(ms)} ms` : 'cancelled');
    },
  );
  register('hang', 'Never answers.', object({}), () => new Promise<never>(() => {}));
  register('crash', 'Kills the server process mid-call.', object({}), () => {
    process.stderr.write('test server: crashing on purpose\n');
    setTimeout(() => process.exit(3), 5);
    return new Promise<never>(() => {});
  });
  register('stats', 'Counters of this server.', object({}), () => ({
    content: [{ type: 'text', text: JSON.stringify({ ...stats, pid: process.pid }) }],
    structuredContent: { ...stats, pid: process.pid },
  }));
  register(
    'change_tools',
    'Removes tool `remove`, adds tool `add` (taking an integer `n`), makes echo require `loud` (`louder`), notifies list_changed.',
    object({ remove: { type: 'string' }, add: { type: 'string' }, louder: { type: 'boolean' } }),
    ({ remove, add, louder }) => {
      if (louder === true)
        tools
          .get('echo')
          ?.update({ paramsSchema: object({ text: { type: 'string' }, loud: { type: 'boolean' } }, ['text', 'loud']) });
      if (typeof remove === 'string') {
        tools.get(remove)?.remove();
        tools.delete(remove);
      }
      if (typeof add === 'string' && !tools.has(add)) {
        register(add, 'Added at run time.', object({ n: { type: 'integer' } }, ['n']), ({ n }) =>
          text(`${add}:${String(n)}`),
        );
      }
      server.sendToolListChanged();
      return text('changed');
    },
  );
  if (behaviour.badSchema) {
    // The SDK's server refuses to list a non-object schema, so in this mode the listing is written
    // by hand: echo, the broken schema, and an inputSchema of { type: "string" }.
    const echo = {
      name: 'echo',
      description: 'Returns the text it is given.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    };
    const bad = {
      name: 'bad_schema',
      description: 'Its input schema is broken.',
      inputSchema: { type: 'object', properties: { x: { type: 'banana' } } },
    };
    const shape = { name: 'bad_shape', description: 'Not an object schema.', inputSchema: { type: 'string' } };
    server.server.setRequestHandler('tools/list', () => ({ tools: [echo, bad, shape] }) as never);
  }
  return server;
}
