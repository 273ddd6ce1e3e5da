/**
 * The support desk for `skein studio` (`npm run studio`): the desk as a graph, a swarm and one
 * agent, each a factory on the session manager the studio gives it. The shop's data (orders,
 * refunds) lives in `SKEIN_DESK_DIR` (default ./.skein/desk); the models are the desk's (a real
 * provider when its credentials are set, else the scripted ones). The page runs the desk's eval set
 * against each target.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StudioTargets } from '@skein/studio';
import { pickDeskModels } from './desk-models.js';
import { DeskStore } from './desk-store.js';
import { buildDeskAgent } from './shapes/agent-desk.js';
import { buildDeskGraph } from './shapes/graph-desk.js';
import { buildDeskSwarm } from './shapes/swarm-desk.js';

/** The desk's targets (the module's default export, read by `skein studio`). */
export default async function deskStudio(): Promise<StudioTargets> {
  const dir = resolve(process.env['INIT_CWD'] ?? process.cwd(), process.env['SKEIN_DESK_DIR'] ?? '.skein/desk');
  const models = await pickDeskModels();
  const store = new DeskStore(dir);
  process.stderr.write(`[model] ${models.description}\n[studio] the shop's data is in ${dir}\n`);
  const parts = { store, modelFor: models.modelFor };
  return {
    graphs: { desk: ({ sessionManager }) => buildDeskGraph({ ...parts, sessionManager }) },
    swarms: { desk: ({ sessionManager }) => buildDeskSwarm({ ...parts, sessionManager }) },
    agents: { desk: ({ sessionManager }) => buildDeskAgent({ ...parts, sessionManager }) },
    // The desk's eval set (evals/cases.jsonl, the module `skein eval run` runs), run from each page.
    evals: fileURLToPath(new URL('../evals/evaluation.ts', import.meta.url)),
  };
}
