import { McpServer } from '@modelcontextprotocol/server';
import { registerContentTools } from './content-tools.js';
import { registerControlTools } from './control-tools.js';
import { registerFaultTools } from './fault-tools.js';
import type { TestServerBehaviour } from './test-server-behaviour.js';
import { TestTools } from './test-tools.js';

export type { TestServerBehaviour } from './test-server-behaviour.js';

/**
 * The listing of the `badSchema` mode. The SDK's server refuses to list a non-object schema, so it is
 * written by hand: echo, the broken schema, and an inputSchema of { type: "string" }.
 */
function listBadSchemas(server: McpServer): void {
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
  const tools = new TestTools(server);
  registerContentTools(tools);
  registerFaultTools(tools);
  registerControlTools(tools);
  if (behaviour.badSchema) listBadSchemas(server);
  return server;
}
