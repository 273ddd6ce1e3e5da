/**
 * `npm run desk:web` in a child process, as a user starts it (scripted models, the given `--dir`):
 * resolves once it printed its two addresses. The tests and the README's screenshot script use it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const main = fileURLToPath(new URL('../main.ts', import.meta.url));
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

/** A running web desk. */
export interface DeskWebProcess {
  /** The customer page, `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  /** The supervisor page with its key, as the desk printed it. */
  readonly supervisorUrl: string;
  readonly port: number;
  /** The process id (to read its memory, or to kill it). */
  readonly pid: number;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the web desk with `args` (add `--dir`); `env` on top of this process's, with no provider credentials. */
export function startDeskWeb(args: string[], env: Record<string, string> = {}): Promise<DeskWebProcess> {
  const child = spawn(process.execPath, ['--conditions=@skein/source', '--import', tsx, main, ...args], {
    cwd: root,
    env: {
      ...process.env,
      ANTHROPIC_API_KEY: '',
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      AWS_ACCESS_KEY_ID: '',
      AWS_PROFILE: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      const customer = /customer page: +(http:\/\/\S+?)\/?$/m.exec(out)?.[1];
      const supervisor = /supervisor page: +(http:\/\/\S+)$/m.exec(out)?.[1];
      if (!customer || !supervisor) return;
      resolve({
        url: customer,
        supervisorUrl: supervisor,
        port: Number(new URL(customer).port),
        pid: child.pid ?? 0,
        output: () => out,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('close', (code, signal) =>
      reject(new Error(`desk:web exited (${code ?? signal}) before it printed its addresses:\n${out}`)),
    );
  });
}
