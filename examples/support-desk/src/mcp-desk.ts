/**
 * The support desk as an MCP server: the desk's graph as the MCP tool `desk`. `npm run desk:mcp`
 * (what a desktop MCP client starts) runs `skein mcp serve` on this module, over stdio; each MCP
 * conversation is a file session in `<dir>/mcp-sessions` (`SKEIN_DESK_DIR`, default ./.desk-mcp), so a
 * client continues one by its id, also after a restart. Refunds over 50 EUR wait for approval: asked
 * by elicitation when the client can, else the result says so and a second call answers.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ServeMcpOptions } from '@skein/mcp';
import { FileSessionManager } from '@skein/session-file';
import { pickDeskModels } from './desk-models.js';
import { DeskStore } from './desk-store.js';
import { buildDeskGraph } from './shapes/graph-desk.js';

/** The desk's `serveMcp` options (the module's default export, read by `skein mcp serve`). */
export default async function deskMcp(): Promise<ServeMcpOptions> {
  const dir = resolve(process.env['INIT_CWD'] ?? process.cwd(), process.env['SKEIN_DESK_DIR'] ?? '.desk-mcp');
  await mkdir(dir, { recursive: true });
  const models = await pickDeskModels();
  const store = new DeskStore(dir);
  process.stderr.write(`[model] ${models.description}\n[mcp] the desk's conversations are in ${dir}/mcp-sessions\n`);
  return {
    graphs: { desk: ({ sessionManager }) => buildDeskGraph({ store, modelFor: models.modelFor, sessionManager }) },
    sessions: (sessionId) => new FileSessionManager({ sessionId, storageDir: `${dir}/mcp-sessions` }),
    descriptions: {
      desk: "The support desk of an online shop (double charges, invoices, refunds). Send the customer's message; pass the conversationId of the result to continue.",
    },
  };
}
