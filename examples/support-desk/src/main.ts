/**
 * The support desk in the terminal. `npm run desk` at the repository root; `--help` for options.
 * Type as the customer; Ctrl-C stops; `/resume` after a restart finishes the message a crash cut.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { pickDeskModels } from './desk-models.js';
import type { DeskProgress, DeskReply, DeskShape } from './desk.js';
import { openDesk } from './open-desk.js';
import { PendingTurns } from './pending-turn.js';

const HELP = `npm run desk -- [options]
  --shape graph|swarm|agent   how the desk is built (default graph)
  --session <id>              conversation id (default "customer-1")
  --dir <path>                data and file sessions (default ./.desk)
  --s3 s3://bucket/prefix     store sessions in S3 instead (AWS environment)
  --script <file>             customer messages, one per line (no prompt)
  --resume                    first finish the message a crash interrupted
`;

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: 'graph' },
    session: { type: 'string', default: 'customer-1' },
    dir: { type: 'string', default: '.desk' },
    s3: { type: 'string' },
    script: { type: 'string' },
    resume: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const shape = values.shape as DeskShape;
if (!['graph', 'swarm', 'agent'].includes(shape)) {
  process.stderr.write(`--shape must be graph, swarm or agent (got ${shape}).\n${HELP}`);
  process.exit(2);
}

// Paths are relative to where the user ran npm (npm runs the script inside the examples workspace).
const cwd = process.env['INIT_CWD'] ?? process.cwd();
const dir = resolve(cwd, values.dir);
await mkdir(dir, { recursive: true });
const models = await pickDeskModels();
console.log(`[model] ${models.description}`);
console.log(`[desk] ${shape} shape, session ${values.session} ${values.s3 ? `in ${values.s3}` : `in ${dir}/sessions`}`);
const opened = await openDesk({ shape, dir, sessionId: values.session, models, ...(values.s3 ? { s3: values.s3 } : {}) });
const pending = new PendingTurns(dir, `${values.session}-${shape}`);

let streaming = false;
const progress: DeskProgress = {
  line: (text) => {
    if (streaming) process.stdout.write('\n');
    streaming = false;
    console.log(`  ${text}`);
  },
  text: (delta) => {
    if (!streaming) process.stdout.write('  … ');
    streaming = true;
    process.stdout.write(delta);
  },
};

const show = (reply: DeskReply): void => {
  if (streaming) process.stdout.write('\n');
  streaming = false;
  console.log(`desk> ${reply.text}${reply.status === 'completed' ? '' : `   [${reply.status}]`}`);
};

async function handle(message: string, index: number, resuming: boolean): Promise<void> {
  await pending.begin({ message, index });
  const reply = resuming ? await opened.desk.resume(message, progress) : await opened.desk.turn(message, progress);
  show(reply);
  await pending.end();
}

async function resumePending(): Promise<number> {
  const cut = await pending.read();
  if (!cut) {
    console.log('[desk] nothing to resume');
    return -1;
  }
  console.log(`[desk] resuming: ${cut.message}`);
  await handle(cut.message, cut.index, true);
  return cut.index;
}

try {
  if (values.script) {
    const lines = (await readFile(resolve(cwd, values.script), 'utf8')).split('\n').map((l) => l.trim()).filter(Boolean);
    const start = values.resume ? (await resumePending()) + 1 : 0;
    for (const [index, message] of lines.entries()) {
      if (index < start) continue;
      console.log(`customer> ${message}`);
      await handle(message, index, false);
    }
  } else {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    rl.on('SIGINT', () => {
      console.log('\n[desk] stopped; the conversation is stored. Start again and type /resume to finish an interrupted message.');
      process.exit(130);
    });
    if (values.resume) await resumePending();
    console.log('Type your message (/resume to finish an interrupted one, /quit to leave).');
    for (;;) {
      const message = (await rl.question('customer> ')).trim();
      if (message === '/quit') break;
      if (message === '/resume') await resumePending();
      else if (message) await handle(message, -1, false);
    }
    rl.close();
  }
} finally {
  await opened.close();
}
