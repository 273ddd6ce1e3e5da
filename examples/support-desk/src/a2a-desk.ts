/**
 * The support desk as an A2A agent: `npm run desk:a2a -- --port 4000` serves the desk's graph (its
 * card names the desk); `--serve refund` serves only the refund agent, for a desk that calls it over
 * A2A (`npm run desk -- --refund-remote http://127.0.0.1:4000 --refund-key <approver key>`). Every
 * A2A task is a file session in `<dir>/a2a-sessions`, so a task the process was killed in resumes
 * when it starts again. Every call needs a key (`Authorization: Bearer <key>`, declared in the card):
 * `[a2a] key:` lets a caller ask, `[a2a] approver key:` also lets it answer approvals (a refund over
 * 50 EUR). Both are kept in `<dir>` and printed at start.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveA2A, type A2ATarget, type Principal } from '@skein/a2a';
import { Agent, type AuthorizeAnswer, type SessionManager } from '@skein/core';
import { FileSessionManager } from '@skein/session-file';
import { pickDeskModels } from './desk-models.js';
import { DeskStore } from './desk-store.js';
import { refundAgentOptions } from './shapes/desk-agents.js';
import { buildDeskGraph } from './shapes/graph-desk.js';
import { deskKey, sameKey } from './web/identity.js';

const HELP = `npm run desk:a2a -- [options]
  --port <n>              port on 127.0.0.1 (default 4000; 0: a free one)
  --serve desk|refund     the desk's graph (default), or only its refund agent
  --dir <path>            the shop's data, the task sessions and the keys (default ./.desk-a2a)
`;

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4000' },
    serve: { type: 'string', default: 'desk' },
    dir: { type: 'string', default: '.desk-a2a' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
if (values.serve !== 'desk' && values.serve !== 'refund') {
  process.stderr.write(`--serve must be desk or refund (got ${values.serve}).\n${HELP}`);
  process.exit(2);
}
const cwd = process.env['INIT_CWD'] ?? process.cwd();
const dir = resolve(cwd, values.dir);
await mkdir(dir, { recursive: true });
const models = await pickDeskModels();
const store = new DeskStore(dir);
const refundOnly = values.serve === 'refund';
const keys = { caller: await deskKey(dir, 'a2a-key'), approver: await deskKey(dir, 'a2a-approver-key') };

const agent = (sessionManager: SessionManager): A2ATarget =>
  refundOnly
    ? new Agent({ ...refundAgentOptions({ store, modelFor: models.modelFor }), sessionManager })
    : buildDeskGraph({ store, modelFor: models.modelFor, sessionManager });

/** Both keys are one tenant (the desk's callers); only the approver key answers approvals. */
const authorize = (request: Request): Principal | undefined => {
  const given = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
  if (sameKey(given, keys.approver)) return { id: 'desk-a2a', approver: true };
  if (sameKey(given, keys.caller)) return { id: 'desk-a2a' };
  return undefined;
};
const authorizeAnswer: AuthorizeAnswer = ({ principal }) =>
  typeof principal === 'object' && principal['approver'] === true;

const server = await serveA2A({
  agent,
  authorize,
  authorizeAnswer,
  sessions: (sessionId) => new FileSessionManager({ sessionId, storageDir: `${dir}/a2a-sessions` }),
  port: Number(values.port),
  card: {
    bearerAuth: { description: 'The key npm run desk:a2a printed: Authorization: Bearer <key>.' },
    ...(refundOnly
      ? {
          name: 'refund',
          description:
            "The support desk's refund agent: money back for an order (refunds over 50 EUR wait for a person's yes).",
        }
      : {
          name: 'support-desk',
          description:
            'The support desk of an online shop: double charges, invoices and refunds. A skein graph: triage routes to billing or refund, a case note is written beside, a summary answers.',
        }),
  },
});
console.log(`[model] ${models.description}`);
console.log(`[a2a] serving the ${refundOnly ? 'refund agent' : 'support desk (graph)'} at ${server.url}`);
if (server.resumed > 0) console.log(`[a2a] resumed ${server.resumed} task(s) a restart had cut`);
console.log(`[a2a] key: ${keys.caller}`);
console.log(`[a2a] approver key: ${keys.approver} (also answers approvals)`);
console.log(`[a2a] card: ${server.url}/.well-known/agent-card.json; tasks in ${dir}/a2a-sessions`);

const stop = async (): Promise<void> => {
  await server.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
