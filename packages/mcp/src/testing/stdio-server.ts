// Entry point of the stdio test server: `node --import tsx stdio-server.ts` from source,
// `node stdio-server.js` once built. Behaviour comes from the SKEIN_MCP_TEST environment variable
// (JSON): { badSchema?: true, failStart?: true, pidFile?: string }.
import { writeFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createTestServer } from './test-server.js';

interface Mode {
  badSchema?: boolean;
  /** Exit with code 2 before serving, after a line on stderr (a server that fails to start). */
  failStart?: boolean;
  /** Write the process id to this file first. */
  pidFile?: string;
}

const mode = JSON.parse(process.env['SKEIN_MCP_TEST'] ?? '{}') as Mode;
if (mode.pidFile) writeFileSync(mode.pidFile, String(process.pid));
if (mode.failStart) {
  process.stderr.write('test server: missing configuration, refusing to start\n');
  process.exit(2);
} else {
  await createTestServer({ badSchema: mode.badSchema === true }).connect(new StdioServerTransport());
}
