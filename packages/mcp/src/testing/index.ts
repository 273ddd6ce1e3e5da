import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { McpStdioTransportOptions } from '../mcp-client-options.js';
import type { HttpTestServer, HttpTestServerOptions } from './http-server.js';
import type { TestServerBehaviour } from './test-server-behaviour.js';

export type { HttpTestServer, HttpTestServerOptions } from './http-server.js';
export type { TestServerBehaviour } from './test-server-behaviour.js';

/** How the stdio test server should misbehave, if at all. */
export interface StdioTestServerMode extends TestServerBehaviour {
  /** Exit with code 2 before serving, after a line on stderr. */
  failStart?: boolean;
  /** Write the server's process id to this file as it starts (to check it is gone later). */
  pidFile?: string;
}

/**
 * The stdio transport options that start the package's MCP test server as a child process (run
 * from source through tsx in the monorepo, as plain JS once built). Needs
 * `@modelcontextprotocol/server` installed.
 */
export function stdioTestServer(mode: StdioTestServerMode = {}): McpStdioTransportOptions {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = fileURLToPath(new URL(fromSource ? './stdio-server.ts' : './stdio-server.js', import.meta.url));
  const args = fromSource ? ['--import', resolveTsx(), script] : [script];
  return { command: process.execPath, args, env: { SKEIN_MCP_TEST: JSON.stringify(mode) } };
}

function resolveTsx(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/**
 * Starts the MCP test server over streamable HTTP on 127.0.0.1 (a free port). Needs
 * `@modelcontextprotocol/server` and `@modelcontextprotocol/node` installed.
 */
export async function startHttpTestServer(options: HttpTestServerOptions = {}): Promise<HttpTestServer> {
  const { startHttpTestServer: start } = await import('./http-server.js');
  return start(options);
}

export { processGone, waitForExit } from './process-gone.js';
