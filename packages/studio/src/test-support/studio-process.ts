/**
 * `skein studio` in a child process, as a developer starts it (by default on the support desk,
 * scripted models, the desk's data and the store in `dir`): resolves once it printed its address.
 * The browser tests, the README's screenshot script and the page-memory script use it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

/** A running studio. */
export interface StudioProcess {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly pid: number;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `skein studio` on the desk's module with its store and data in `dir`. */
export function startDeskStudio(dir: string): Promise<StudioProcess> {
  const module = join(root, 'examples/support-desk/src/studio-desk.ts');
  return startStudio(dir, module, { DESK_MODEL: 'scripted', SKEIN_DESK_DIR: join(dir, 'desk') });
}

/** Starts `skein studio` on `module` with its SQLite store in `dir` (and `env` added to the environment). */
export function startStudio(dir: string, module: string, env: Record<string, string> = {}): Promise<StudioProcess> {
  const bin = join(root, 'packages/inspector/src/bin.ts');
  const child = spawn(
    process.execPath,
    ['--conditions=@skein/source', '--import', tsx, bin, 'studio', module, '--store', `sqlite:${dir}/studio.db`],
    {
      cwd: dir,
      env: { ...process.env, ...env, INIT_CWD: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      const url = /skein studio: (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (!url) return;
      resolve({
        url,
        pid: child.pid ?? 0,
        output: () => out,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('close', (code, signal) => reject(new Error(`skein studio exited (${code ?? signal}):\n${out}`)));
  });
}
