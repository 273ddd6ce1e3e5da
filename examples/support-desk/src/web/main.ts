/**
 * The support desk on the web. `npm run desk:web` at the repository root; `--help` for options.
 * Prints the customer page's address and the supervisor's (with its key); SIGTERM or Ctrl-C stops it
 * gracefully, and a restart (even after a crash) resumes the turns that were running.
 */
import { mkdir } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serve } from '@skein/server';
import { pickDeskModels } from '../desk-models.js';
import type { DeskShape } from '../desk.js';
import { openDeskSessions, type DeskStoreKind } from '../open-desk.js';
import { buildAssets } from './assets.js';
import { createDeskWeb } from './desk-web.js';
import { deskKeys } from './identity.js';

const HELP = `npm run desk:web -- [options]
  --shape graph|swarm|agent   the desk the customer page talks to (default graph; all three are served)
  --port <n>                  port on 127.0.0.1 (default: a free one)
  --dir <path>                the shop's data, and the sessions of --store sqlite or file (default ./.desk)
  --store sqlite|file|s3|postgres
                              where sessions are stored (default sqlite: <dir>/desk.db; file: <dir>/sessions)
  --s3 s3://bucket/prefix     with --store s3 (implies it): the bucket and prefix (AWS environment)
  --postgres <url>            with --store postgres: postgres://user@host:5432/db (default: $DATABASE_URL)
  --budget-tokens <n>         tokens each conversation may spend in this process (default 200000)
`;

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: 'graph' },
    port: { type: 'string', default: '0' },
    dir: { type: 'string', default: '.desk' },
    store: { type: 'string' },
    s3: { type: 'string' },
    postgres: { type: 'string' },
    'budget-tokens': { type: 'string', default: '200000' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const shape = values.shape as DeskShape;
const port = Number(values.port);
const budgetTokens = Number(values['budget-tokens']);
const store = (values.store ?? (values.s3 ? 's3' : 'sqlite')) as DeskStoreKind;
/** What is wrong with the options, if anything. */
function problem(): string | undefined {
  if (!['graph', 'swarm', 'agent'].includes(shape)) return `--shape must be graph, swarm or agent (got ${shape})`;
  if (!['sqlite', 'file', 's3', 'postgres'].includes(store))
    return `--store must be sqlite, file, s3 or postgres (got ${store})`;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) return `--port must be a port number (got ${values.port})`;
  if (!(budgetTokens > 0)) return `--budget-tokens must be a positive number (got ${values['budget-tokens']})`;
  return undefined;
}
const bad = problem();
if (bad) {
  process.stderr.write(`${bad}.\n${HELP}`);
  process.exit(2);
}

// Paths are relative to where the user ran npm (npm runs the script inside the examples workspace).
const cwd = process.env['INIT_CWD'] ?? process.cwd();
const dir = resolve(cwd, values.dir);
/** A path as the user can type it where they ran npm: relative when it is inside. */
const near = (path: string): string =>
  !isAbsolute(path) || relative(cwd, path).startsWith('..') ? path : relative(cwd, path) || '.';
await mkdir(dir, { recursive: true });
const models = await pickDeskModels();
const postgres = values.postgres ?? process.env['DATABASE_URL'];
const sessions = await openDeskSessions({
  dir,
  store,
  ...(values.s3 ? { s3: values.s3 } : {}),
  ...(postgres ? { postgres } : {}),
});
const keys = await deskKeys(dir);
const app = createDeskWeb({
  shape,
  dir,
  sessions,
  models,
  budgetTokens,
  keys,
  assets: await buildAssets(),
});
const running = await serve(app, { port, hostname: '127.0.0.1', log: null });
console.log(`[model] ${models.description}`);
console.log(`[desk] ${shape} shape; sessions in ${near(sessions.where)}; shop data in ${near(dir)}`);
console.log(`[desk] customer page:   ${running.url}/`);
console.log(`[desk] supervisor page: ${running.url}/supervisor?key=${keys.supervisor}`);
