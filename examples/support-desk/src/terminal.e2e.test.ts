import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refundsMade, replies, runDesk } from './test-support/desk-run.js';

// The terminal desk as a person uses it: messages typed or piped in, its commands, the end of the
// input (Ctrl-D, the end of a pipe, /dev/null) and Ctrl-C, each ending with exit 0 and a line that
// says so; approvals printed as waiting until they ran; a usage line after every turn.

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-desk-terminal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const GOODBYE = /^\[desk\] goodbye; the conversation is stored \(--session customer-1\)/m;

describe('the terminal desk', () => {
  it('reads piped messages, answers /help, refuses unknown commands, takes a piped approval, and says goodbye at the end', async () => {
    const input = [
      'I was charged twice for order 42',
      '/help',
      '/refund-all now',
      'Please refund order 108, 60 EUR',
      'y',
    ]
      .map((line) => `${line}\n`)
      .join('');
    const run = await runDesk(['--dir', dir], { input });
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain('customer> I was charged twice for order 42\n');
    expect(out).toMatch(/customer> \/help\nCommands:\n {2}\/resume .*\n {2}\/help .*\n {2}\/quit /);
    expect(out).toContain('[desk] unknown command /refund-all; /help lists the commands.');
    expect(replies(out)).toEqual([
      'I reversed the duplicate charge on invoice INV-42; you are now charged 80 EUR once. Case closed.',
      'I refunded 60 EUR for order 108; it reaches your card in 3 to 5 days. Case closed.',
    ]);
    // The refund waits for the approval and is printed as run only after it.
    const waits = out.indexOf('[refund] waits for approval: issue_refund {"orderId":"108","amountEur":60');
    const asked = out.indexOf('[approval] refund asks to issue_refund');
    const ran = out.indexOf('[refund] tool issue_refund');
    expect(waits).toBeGreaterThan(0);
    expect(asked).toBeGreaterThan(waits);
    expect(ran).toBeGreaterThan(asked);
    expect(out.slice(0, asked)).not.toContain('tool issue_refund');
    expect(out.match(/^\[budget\] turn: /gm)).toHaveLength(2);
    expect(out).toMatch(GOODBYE);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
  }, 120_000);

  it('with nothing to read (< /dev/null) says goodbye and exits 0; a one-call turn says "1 model call"', async () => {
    const empty = await runDesk(['--dir', dir]);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(GOODBYE);
    const one = await runDesk(['--dir', dir, '--shape', 'agent'], { input: 'What are your opening hours?' });
    expect(one.stdout).toMatch(/^\[budget\] turn: 15 tokens in 1 model call; conversation: 15 of 200000 tokens$/m);
  }, 120_000);

  it('the one-agent desk prints what the refund agent it uses as a tool does, under its name, while it works', async () => {
    const run = await runDesk(['--dir', dir, '--shape', 'agent'], { input: 'Please refund order 108, 60 EUR\ny\n' });
    expect(run.code).toBe(0);
    const out = run.stdout;
    const looked = out.indexOf('[desk/refund] tool lookup_order {"orderId":"108"}');
    const asked = out.indexOf('[approval] desk/refund asks to issue_refund');
    const paid = out.indexOf('[desk/refund] tool issue_refund {"orderId":"108","amountEur":60');
    const answered = out.indexOf('[desk] tool refund {');
    expect(looked).toBeGreaterThan(0);
    expect([looked < asked, asked < paid, paid < answered]).toEqual([true, true, true]);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
  }, 120_000);

  it('an approval the input ended before stays stored; /resume later in the chat answers it, with its usage line', async () => {
    const first = await runDesk(['--dir', dir], { input: 'Please refund order 108, 60 EUR\n' });
    expect(first.stdout).toContain('[desk] waiting for approval (');
    expect(first.stdout).toMatch(GOODBYE);
    const second = await runDesk(['--dir', dir], { input: '/resume\nyes\n' });
    expect(replies(second.stdout)).toEqual([
      'I refunded 60 EUR for order 108; it reaches your card in 3 to 5 days. Case closed.',
    ]);
    expect(second.stdout).toMatch(/^\[budget\] turn: \d+ tokens in \d+ model calls?; /m);
    expect(await refundsMade(dir)).toEqual([{ orderId: '108', amountEur: 60 }]);
  }, 120_000);

  it('Ctrl-C (SIGINT): the desk says it stopped and exits 0; under npm, no npm error block', async () => {
    const desk = await interrupted(process.execPath, [
      '--conditions=@skein/source',
      '--import',
      'tsx',
      MAIN,
      '--dir',
      dir,
    ]);
    expect(desk).toMatchObject({ code: 0, signal: null });
    expect(desk.out).toContain('[desk] stopped; the conversation is stored.');
    // A terminal's Ctrl-C reaches the whole foreground group: npm re-raises the signal once the desk
    // exited (npm's own way; on a terminal in raw mode only the desk sees Ctrl-C and npm exits 0).
    const npm = await interrupted('npm', ['run', 'desk', '--', '--dir', dir]);
    expect(npm.code === 0 || npm.signal === 'SIGINT').toBe(true);
    expect(npm.out).toContain('[desk] stopped; the conversation is stored.');
    expect(npm.out).not.toMatch(/npm error|npm ERR!|code 130/);
  }, 120_000);
});

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

/** Starts `command` in its own process group (a terminal's foreground job), sends the group SIGINT once the chat is ready, and waits for it to end. */
function interrupted(
  command: string,
  args: string[],
): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, ANTHROPIC_API_KEY: '', AWS_ACCESS_KEY_ID: '', AWS_PROFILE: '', OPENAI_API_KEY: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const read = (chunk: Buffer): void => {
    const ready = !out.includes('Type your message');
    out += chunk.toString('utf8');
    if (ready && out.includes('Type your message')) process.kill(-(child.pid as number), 'SIGINT');
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, out })));
}
