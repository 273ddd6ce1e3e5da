/** Runs the desk CLI in a child process, as a user would, and reads what it stored. */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { NodeTransition, SessionRepository } from '@skein/core';
import { FileSessionRepository } from '@skein/session-file';
import { PostgresSessionRepository } from '@skein/session-postgres';
import { S3SessionRepository } from '@skein/session-s3';
import { SqliteSessionRepository } from '@skein/session-sqlite';
import type { S3ClientConfig } from '@aws-sdk/client-s3';

/** Where a test's desk stored its sessions (the desk's default: SQLite in `<dir>/desk.db`). */
export type TestStore =
  | { kind: 'sqlite' }
  | { kind: 'file' }
  | { kind: 's3'; bucket: string; prefix: string; clientConfig: S3ClientConfig }
  | { kind: 'postgres'; connectionString: string };

/** Reads a desk's sessions from `store`, then closes it. */
async function withRepository<T>(
  dir: string,
  store: TestStore,
  read: (r: SessionRepository) => Promise<T>,
): Promise<T> {
  const r =
    store.kind === 'sqlite'
      ? new SqliteSessionRepository({ path: join(dir, 'desk.db'), readonly: true })
      : store.kind === 'file'
        ? new FileSessionRepository({ storageDir: join(dir, 'sessions') })
        : store.kind === 's3'
          ? new S3SessionRepository({ bucket: store.bucket, prefix: store.prefix, clientConfig: store.clientConfig })
          : new PostgresSessionRepository({ connectionString: store.connectionString });
  try {
    return await read(r);
  } finally {
    if (r instanceof S3SessionRepository) r.destroy();
    else if (!(r instanceof FileSessionRepository)) await r.close();
  }
}

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const entries = {
  main: fileURLToPath(new URL('../main.ts', import.meta.url)),
  restate: fileURLToPath(new URL('../restate-desk.ts', import.meta.url)),
  a2a: fileURLToPath(new URL('../a2a-desk.ts', import.meta.url)),
  eval: fileURLToPath(new URL('../../evals/run-desk-eval.ts', import.meta.url)),
};
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

export interface DeskRun {
  stdout: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Runs `main.ts` (or `restate-desk.ts`, `npm run desk:restate`; `run-desk-eval.ts`, `npm run desk:eval`)
 * with `args`; with `killWhen`, SIGKILLs it as soon as stdout matches. A non-zero exit rejects unless
 * `allowFailure`.
 */
export function runDesk(
  args: string[],
  options: {
    killWhen?: RegExp;
    /** SIGKILLs the desk once this holds (checked every 10 ms), e.g. once a refund is in the shop's data. */
    killOnceTrue?: () => Promise<boolean>;
    env?: Record<string, string>;
    entry?: keyof typeof entries;
    allowFailure?: boolean;
    /** Piped to stdin (default: nothing, as `< /dev/null`). */
    input?: string;
  } = {},
): Promise<DeskRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@skein/source', '--import', tsx, entries[options.entry ?? 'main'], ...args],
      {
        cwd: root,
        env: { ...process.env, ANTHROPIC_API_KEY: '', AWS_ACCESS_KEY_ID: '', AWS_PROFILE: '', ...options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    child.stdin.end(options.input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (options.killWhen?.test(stdout)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    const check = options.killOnceTrue;
    const poll = check
      ? setInterval(() => {
          void check().then((yes) => yes && child.kill('SIGKILL'), reject);
        }, 10)
      : undefined;
    child.on('close', (code, signal) => {
      if (poll) clearInterval(poll);
      if (code !== 0 && signal === null && !options.allowFailure)
        reject(new Error(`desk exited with ${code}:\n${stdout}\n${stderr}`));
      else resolve({ stdout, code, signal });
    });
  });
}

/** A long-running desk process (`npm run desk:a2a`), started once its first line matching `ready` is printed. */
export interface DeskService {
  readonly output: () => string;
  readonly exited: Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `entry` with `args` and resolves when its stdout matches `ready`. */
export function startDeskService(
  entry: keyof typeof entries,
  args: string[],
  ready: RegExp,
  env: Record<string, string> = {},
): Promise<DeskService> {
  const child = spawn(process.execPath, ['--conditions=@skein/source', '--import', tsx, entries[entry], ...args], {
    cwd: root,
    env: { ...process.env, ANTHROPIC_API_KEY: '', AWS_ACCESS_KEY_ID: '', AWS_PROFILE: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (ready.test(out))
        resolve({
          output: () => out,
          exited,
          kill: async (signal) => {
            child.kill(signal);
            await exited;
          },
        });
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('close', (code) => reject(new Error(`${entry} exited with ${code} before it was ready:\n${out}`)));
  });
}

/** A desk chatting in a child process: `say` answers at its prompt, as a person at the terminal would. */
export interface LiveDesk {
  /** Types `line` at the `customer>` prompt; resolves with what the desk printed until its next prompt. */
  say(line: string): Promise<string>;
  /** Types `/quit` and waits for the process to end. */
  quit(): Promise<DeskRun>;
}

/** Starts `main.ts` in chat mode (no `--script`) and waits for its first prompt. */
export async function startDesk(args: string[], env: Record<string, string> = {}): Promise<LiveDesk> {
  const child = spawn(process.execPath, ['--conditions=@skein/source', '--import', tsx, entries.main, ...args], {
    cwd: root,
    env: { ...process.env, ANTHROPIC_API_KEY: '', AWS_ACCESS_KEY_ID: '', AWS_PROFILE: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let waiting: { prompts: number; resolve: (out: string) => void; reject: (e: Error) => void } | undefined;
  const prompts = (): number => stdout.split('customer> ').length - 1;
  const check = (): void => {
    if (waiting && prompts() >= waiting.prompts) waiting.resolve(stdout);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    check();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<DeskRun>((resolve) =>
    child.on('close', (code, signal) => {
      waiting?.reject(new Error(`desk exited with ${code}:\n${stdout}\n${stderr}`));
      resolve({ stdout, code, signal });
    }),
  );
  const untilPrompt = (count: number): Promise<string> =>
    new Promise((resolve, reject) => {
      waiting = { prompts: count, resolve, reject };
      check();
    });
  await untilPrompt(1);
  return {
    async say(line) {
      const from = stdout.length;
      const next = prompts() + 1;
      child.stdin.write(`${line}\n`);
      return (await untilPrompt(next)).slice(from);
    },
    async quit() {
      child.stdin.end('/quit\n');
      return exited;
    },
  };
}

export async function writeScript(dir: string, lines: string[]): Promise<string> {
  const file = join(dir, 'script.txt');
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

/** The desk's replies, in order. */
export const replies = (stdout: string): string[] => [...stdout.matchAll(/^desk> (.*)$/gm)].map((m) => m[1] ?? '');

/** The transitions an orchestrator stored, as `from>to:kind` (a join as `*>to:join`: which source arrives last is a race). */
export async function storedTransitions(
  dir: string,
  sessionId: string,
  multiAgentId: string,
  store: TestStore = { kind: 'sqlite' },
): Promise<string[]> {
  return (await readTransitions(dir, sessionId, multiAgentId, store)).map(
    (t) => `${t.kind === 'join' ? '*' : (t.from ?? '')}>${t.to ?? ''}:${t.kind}`,
  );
}

/** The stored transitions themselves (with their `details`). */
export function readTransitions(
  dir: string,
  sessionId: string,
  multiAgentId: string,
  store: TestStore = { kind: 'sqlite' },
): Promise<NodeTransition[]> {
  return withRepository(dir, store, (r) => r.readTransitions(sessionId, multiAgentId));
}

/** An agent's stored conversation, as one line per message: `role: text | toolUse name | toolResult status`. */
export async function storedConversation(
  dir: string,
  sessionId: string,
  agentId: string,
  store: TestStore = { kind: 'sqlite' },
): Promise<string[]> {
  const rows = await withRepository(dir, store, (r) => r.listMessages(sessionId, agentId));
  return rows.map(
    ({ message }) =>
      `${message.role}: ${message.content.map((b) => ('text' in b ? b.text : 'toolUse' in b ? `toolUse ${b.toolUse.name}` : 'toolResult' in b ? `toolResult ${b.toolResult.status}` : '?')).join(' | ')}`,
  );
}

export async function refundsMade(dir: string): Promise<{ orderId: string; amountEur: number }[]> {
  // The data file is written on the first change: none yet means no refund.
  const text = await readFile(join(dir, 'desk-data.json'), 'utf8').catch((e: NodeJS.ErrnoException) =>
    e.code === 'ENOENT' ? '{"refunds":[]}' : Promise.reject(e),
  );
  const data = JSON.parse(text) as { refunds: { orderId: string; amountEur: number }[] };
  return data.refunds.map(({ orderId, amountEur }) => ({ orderId, amountEur }));
}
