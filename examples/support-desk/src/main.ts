/**
 * The support desk in the terminal. `npm run desk` at the repository root; `--help` for options.
 * Type as the customer (or pipe the messages in); `/help` lists the commands; Ctrl-D, `/quit` or the
 * end of the input leaves, Ctrl-C stops at once; `/resume` after a restart finishes the message a
 * crash cut.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pickDeskModels } from './desk-models.js';
import { SessionConflictError, type BudgetSpend, type Interrupt, type InterruptResponseBlock } from '@skein/core';
import type { DeskProgress, DeskReply, DeskShape } from './desk.js';
import { openDesk, type DeskStoreKind } from './open-desk.js';
import { PendingTurns, type PendingTurn } from './pending-turn.js';
import { TerminalInput } from './terminal-input.js';

const HELP = `npm run desk -- [options]
  --shape graph|swarm|agent   how the desk is built (default graph)
  --session <id>              conversation id (default "customer-1")
  --customer <id>             whose memory the desk reads and writes across conversations (default: the session id)
  --dir <path>                the shop's data, and the sessions of --store sqlite or file (default ./.desk)
  --store sqlite|file|s3|postgres
                              where sessions are stored (default sqlite: <dir>/desk.db; file: <dir>/sessions)
  --s3 s3://bucket/prefix     with --store s3 (implies it): the bucket and prefix (AWS environment)
  --postgres <url>            with --store postgres: postgres://user@host:5432/db (default: $DATABASE_URL)
  --script <file>             customer messages, one per line (no prompt)
  --resume                    first finish the message a crash (or an unanswered approval) interrupted
  --budget-tokens <n>         tokens the conversation may spend in this process (default 200000)
  --model <a,b,...>           providers tried in order (anthropic, openai, bedrock), e.g. anthropic,bedrock:
                              a 529, 429 or 5xx moves on to the next (default: the first one configured)
  --refund-remote <url>       use the refund agent served over A2A at <url> (npm run desk:a2a -- --serve refund)
  --refund-key <key>          the key it printed ([a2a] approver key: ...; default $DESK_A2A_KEY)
  --yes | --no                approve | deny refunds that need approval without asking
                              (with --script and neither, the desk stops at an approval; --resume answers it)
`;

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: 'graph' },
    session: { type: 'string', default: 'customer-1' },
    customer: { type: 'string' },
    dir: { type: 'string', default: '.desk' },
    s3: { type: 'string' },
    store: { type: 'string' },
    postgres: { type: 'string' },
    script: { type: 'string' },
    resume: { type: 'boolean', default: false },
    'budget-tokens': { type: 'string', default: '200000' },
    model: { type: 'string' },
    'refund-remote': { type: 'string' },
    'refund-key': { type: 'string' },
    yes: { type: 'boolean', default: false },
    no: { type: 'boolean', default: false },
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

const store = (values.store ?? (values.s3 ? 's3' : 'sqlite')) as DeskStoreKind;
if (!['sqlite', 'file', 's3', 'postgres'].includes(store)) {
  process.stderr.write(`--store must be sqlite, file, s3 or postgres (got ${store}).\n${HELP}`);
  process.exit(2);
}
const postgresUrl = values.postgres ?? process.env['DATABASE_URL'];

// Paths are relative to where the user ran npm (npm runs the script inside the examples workspace).
const cwd = process.env['INIT_CWD'] ?? process.cwd();
const dir = resolve(cwd, values.dir);
await mkdir(dir, { recursive: true });
const models = await pickDeskModels(process.env, values.model).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${HELP}`);
  process.exit(2);
});
console.log(`[model] ${models.description}`);
// Inside the directory npm was run from, the path is shown relative to it (`.desk/desk.db`).
const near = (path: string): string => (relative(cwd, path).startsWith('..') ? path : relative(cwd, path));
const where = { sqlite: near(`${dir}/desk.db`), file: near(`${dir}/sessions`), s3: values.s3, postgres: 'PostgreSQL' }[
  store
];
console.log(`[desk] ${shape} shape, session ${values.session} in ${where}`);
const budget = { totalTokens: Number(values['budget-tokens']) }; // one budget for the conversation: every turn, node and specialist draws from it
const refundKey = values['refund-key'] ?? process.env['DESK_A2A_KEY'];
const opened = await openDesk({
  shape,
  dir,
  sessionId: values.session,
  ...(values.customer ? { customer: values.customer } : {}),
  models,
  budget,
  store,
  ...(values.s3 ? { s3: values.s3 } : {}),
  ...(values['refund-remote'] ? { refundRemote: values['refund-remote'] } : {}),
  ...(refundKey ? { refundRemoteKey: refundKey } : {}),
  ...(postgresUrl ? { postgres: postgresUrl } : {}),
});
if (values['refund-remote']) console.log(`[desk] refund agent: ${values['refund-remote']} (A2A)`);
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

let input: TerminalInput | undefined;

/** Asks the person at the terminal (or takes --yes / --no); `undefined`: nobody to ask (a script run, or the input ended). */
async function decide(interrupt: Interrupt): Promise<{ approved: boolean; message?: string } | undefined> {
  const reason = interrupt.reason as { input?: unknown; tool?: unknown } | null;
  const what = JSON.stringify(reason?.input ?? interrupt.reason);
  // A refund agent served over A2A asks through its stand-in's tool use: the reason names the remote tool.
  const action = typeof reason?.tool === 'string' ? reason.tool : (interrupt.toolUse?.name ?? interrupt.name);
  if (values.yes || values.no) {
    console.log(
      `[approval] ${interrupt.source} asks to ${action} ${what}: ${values.yes ? 'approved (--yes)' : 'denied (--no)'}`,
    );
    return values.yes ? { approved: true } : { approved: false, message: 'denied by the operator' };
  }
  const said = await input?.ask(`[approval] ${interrupt.source} asks to ${action} ${what}. Approve? [y/N] `);
  if (said === undefined) return undefined;
  return /^y(es)?$/i.test(said) ? { approved: true } : { approved: false, message: 'denied by the operator' };
}

/** Shows a reply; while it waits for approvals, asks for them and continues. False: stopped waiting. */
async function settle(reply: DeskReply, turn: PendingTurn): Promise<boolean> {
  for (let r = reply; ; ) {
    if (!r.interrupts?.length) {
      show(r);
      return true;
    }
    await pending.begin({ ...turn, interrupts: r.interrupts });
    const answers: InterruptResponseBlock[] = [];
    for (const interrupt of r.interrupts) {
      const answer = await decide(interrupt);
      if (!answer) {
        console.log(
          `[desk] waiting for approval (${r.interrupts.map((i) => i.id).join(', ')}); it is stored. Run again with --resume (and --yes or --no), or type /resume in the chat.`,
        );
        return false;
      }
      answers.push({ interruptResponse: { interruptId: interrupt.id, response: answer } });
    }
    r = await opened.desk.answer(answers, progress);
  }
}

/** Prints what a turn spent and what the conversation has spent of its budget. */
function showSpend(before: BudgetSpend | undefined): void {
  const now = opened.budget?.spent;
  if (!now || !before) return;
  const calls = now.modelCalls - before.modelCalls;
  console.log(
    `[budget] turn: ${now.totalTokens - before.totalTokens} tokens in ${calls} model call${calls === 1 ? '' : 's'}; conversation: ${now.totalTokens} of ${budget.totalTokens} tokens`,
  );
}

/**
 * Runs a turn. Another desk process on the same conversation may have answered since this one loaded
 * it: then the session refuses the turn before it stores anything (`SessionConflictError`), and the
 * desk reloads the conversation from the store and runs the turn again on it. `undefined`: the other
 * process is answering right now.
 */
async function reloadingTurn(message: string, index: number, resuming: boolean): Promise<DeskReply | undefined> {
  for (let attempt = 0; ; attempt++) {
    await pending.begin({ message, index });
    try {
      return resuming ? await opened.desk.resume(message, progress) : await opened.desk.turn(message, progress);
    } catch (error) {
      if (!SessionConflictError.is(error)) throw error;
      await pending.abandon();
      if (attempt > 0) {
        console.log(
          '[desk] another process is answering in this conversation right now; send your message again in a moment.',
        );
        await opened.reload();
        return undefined;
      }
      console.log(
        '[desk] another process answered in this conversation since this one loaded it; reloading the conversation.',
      );
      await opened.reload();
    }
  }
}

async function handle(message: string, index: number, resuming: boolean): Promise<boolean> {
  const before = opened.budget?.spent;
  try {
    const reply = await reloadingTurn(message, index, resuming);
    if (!reply) return true;
    const settled = await settle(reply, { message, index });
    showSpend(before);
    if (!settled) return false;
    await pending.end();
    return true;
  } finally {
    await opened.release(); // between turns another desk process on this conversation may answer
  }
}

/** Finishes what a crash or an unanswered approval left; returns the script index it reached (-2: still waiting). */
async function resumePending(): Promise<number> {
  const cut = await pending.read();
  if (!cut) {
    console.log('[desk] nothing to resume');
    return -1;
  }
  console.log(`[desk] resuming: ${cut.message}`);
  if (cut.interrupts?.length) {
    const before = opened.budget?.spent;
    try {
      const done = await settle({ text: '', status: 'interrupted', interrupts: cut.interrupts }, cut);
      showSpend(before);
      if (!done) return -2;
      await pending.end();
      return cut.index;
    } finally {
      await opened.release();
    }
  }
  return (await handle(cut.message, cut.index, true)) ? cut.index : -2;
}

/** The chat's commands. */
const COMMANDS = `Commands:
  /resume   finish the message a crash or an unanswered approval interrupted
  /help     this list
  /quit     leave (Ctrl-D or the end of piped input does too)
Anything else is a message to the desk.`;

const goodbye = (): void =>
  console.log(
    `[desk] goodbye; the conversation is stored (--session ${values.session}). Start again to go on with it.`,
  );

/** The chat on stdin (typed or piped) until /quit or the end of the input. */
async function chat(): Promise<void> {
  input = new TerminalInput(process.stdin, process.stdout, () => {
    // The turn in progress is stored step by step: exit at once (0: stopping is what the person asked for).
    console.log(
      '\n[desk] stopped; the conversation is stored. Start again and type /resume to finish an interrupted message.',
    );
    process.exit(0);
  });
  if (values.resume) await resumePending();
  console.log('Type your message (/help lists the commands).');
  for (;;) {
    const line = await input.ask('customer> ');
    if (line === undefined || line === '/quit') break;
    if (line === '/help') console.log(COMMANDS);
    else if (line === '/resume') await resumePending();
    else if (line.startsWith('/'))
      console.log(`[desk] unknown command ${line.split(/\s/)[0]}; /help lists the commands.`);
    else if (line) await handle(line, -1, false);
  }
  input.close();
}

try {
  if (values.script) {
    const lines = (await readFile(resolve(cwd, values.script), 'utf8'))
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const reached = values.resume ? await resumePending() : -1;
    for (const [index, message] of lines.entries()) {
      if (reached === -2) break;
      if (index <= reached) continue;
      console.log(`customer> ${message}`);
      if (!(await handle(message, index, false))) break;
    }
  } else await chat();
  goodbye();
} finally {
  await opened.close();
}
