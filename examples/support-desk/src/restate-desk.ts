/**
 * The support desk on Restate, in one command (`npm run desk:restate`): starts Restate's server
 * (installed into a cache on first use), serves the desk graph and swarm as workflows and the
 * one-agent desk as a virtual object from this process, and sends the customer's messages through Restate's ingress.
 * A worker that died mid-message would be replaced by a retry that replays finished model and tool
 * calls; see packages/restate/README.md. A refund over the approval limit makes the run wait inside
 * Restate: this script reads what it waits for (`pending`) and answers through `respond` (approve by
 * default, `--no` to deny). With SKEIN_RESTATE_INGRESS_URL and SKEIN_RESTATE_ADMIN_URL set, it uses that
 * running server instead of starting one (the tests share one server per run).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as restate from '@restatedev/restate-sdk';
import {
  restateAgent,
  restateGraph,
  restateSwarm,
  type AgentReply,
  type PendingReply,
  type RunReply,
} from '@skein/restate';
import { RestateServer } from '@skein/restate/testing';
import { pickDeskModels } from './desk-models.js';
import { DeskStore } from './desk-store.js';
import { buildDeskAgent } from './shapes/agent-desk.js';
import { buildDeskGraph } from './shapes/graph-desk.js';
import { buildDeskSwarm } from './shapes/swarm-desk.js';

const { values } = parseArgs({
  options: {
    script: { type: 'string' },
    dir: { type: 'string', default: '.desk-restate' },
    no: { type: 'boolean', default: false },
  },
});
const cwd = process.env['INIT_CWD'] ?? process.cwd();
const dir = resolve(cwd, values.dir);
await mkdir(dir, { recursive: true });
const messages = values.script
  ? (await readFile(resolve(cwd, values.script), 'utf8'))
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
  : ['Hi, I was charged twice for order 42', 'Please refund order 7', 'Please refund order 108'];

const models = await pickDeskModels();
console.log(`[model] ${models.description}`);
const parts = { store: new DeskStore(dir), modelFor: models.modelFor, sessionManager: undefined };

const ingressUrl = process.env['SKEIN_RESTATE_INGRESS_URL'];
const adminUrl = process.env['SKEIN_RESTATE_ADMIN_URL'];
if (!ingressUrl || !adminUrl)
  console.log('[restate] starting restate-server (first run installs @restatedev/restate-server into ~/.cache/skein)');
const server = ingressUrl && adminUrl ? RestateServer.at({ ingressUrl, adminUrl }) : await RestateServer.start();
const port = await restate.serve({
  port: 0,
  services: [
    restateGraph('deskGraph', () => buildDeskGraph(parts)),
    restateSwarm('deskSwarm', () => buildDeskSwarm(parts)),
    restateAgent('deskAgent', () => buildDeskAgent(parts)),
  ],
});
await server.register(`http://127.0.0.1:${port}`);
console.log(`[restate] ingress ${server.ingressUrl}, worker on :${port}`);

/** Starts `path` (`<name>/<key>/<handler>`), answers the approvals it waits for, and returns its reply. */
async function answered<T>(path: string, body: string): Promise<T> {
  const invocation = await server.send(path, body);
  const done = server.attach<T>(invocation).then((reply) => ({ reply }));
  const key = path.slice(0, path.lastIndexOf('/'));
  for (;;) {
    const next = await Promise.race([
      done,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100)),
    ]);
    if (next) return next.reply;
    const { interrupts } = await server.call<PendingReply>(`${key}/pending`, null);
    for (const interrupt of interrupts) {
      const response = values.no ? { approved: false, message: 'denied by the operator' } : { approved: true };
      console.log(
        `  [approval] ${interrupt.source} asks to ${interrupt.toolUse?.name ?? interrupt.name} ${JSON.stringify((interrupt.reason as { input?: unknown } | null)?.input ?? interrupt.reason)}: ${values.no ? 'denied (--no)' : 'approved (--no denies)'}`,
      );
      await server.call(`${key}/respond`, { interruptId: interrupt.id, response });
    }
  }
}

try {
  const runId = `run-${Date.now()}`;
  for (const [i, message] of messages.entries()) {
    console.log(`customer> ${message}`);
    const graph = await answered<RunReply>(`deskGraph/${runId}-${i}/run`, message);
    console.log(
      `  [graph ${graph.status}] ${graph.transitions.map((t) => `${t.from ?? ''}->${t.to ?? ''}`).join(' ')}`,
    );
    console.log(`desk (graph)> ${graph.texts['summary'] ?? graph.texts['triage'] ?? ''}`);
    const swarm = await answered<RunReply>(`deskSwarm/${runId}-${i}/run`, message);
    const last = swarm.transitions.filter((t) => t.from !== null).at(-1)?.from ?? 'triage';
    console.log(
      `  [swarm ${swarm.status}] ${swarm.transitions.map((t) => `${t.from ?? ''}->${t.to ?? ''}`).join(' ')}`,
    );
    console.log(`desk (swarm)> ${swarm.texts[last] ?? ''}`);
    const agent = await answered<AgentReply>(`deskAgent/${runId}/send`, message);
    console.log(`desk (agent)> ${agent.text}`);
  }
} finally {
  await server.stop();
  process.exit(0);
}
