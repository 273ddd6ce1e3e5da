/**
 * A studio that reloads its module when the module's files change: the studio runs in a child
 * process (a fresh module graph each time); a change in the module's directory (debounced) stops it
 * gracefully and starts another on the same port. Conversations stay: they are in the store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningStudio } from './start-studio.js';
import { studioError } from './studio-errors.js';

/** Options of {@link watchStudio}: a module path (not an object: it is loaded in the child). */
export interface WatchStudioOptions {
  module: string;
  port?: number;
  /** A store spec (`sqlite:<file>`, `file:<dir>`); a function cannot cross into the child. */
  store?: string;
  cwd?: string;
  /** Told of each reload (and of a child that failed to start); default none. */
  log?: (line: string) => void;
}

/** The child's entry: beside this file (`.ts` from source, `.js` from `dist`). */
const CHILD = fileURLToPath(
  new URL(`./studio-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);

/** Node's arguments for the child: this process's, plus the source condition and tsx when it runs from source. */
function childArgs(): string[] {
  const args = [...process.execArgv];
  if (!CHILD.endsWith('.ts')) return args;
  if (!args.some((a) => a.includes('@skein/source'))) args.push('--conditions=@skein/source');
  if (!args.some((a) => a.includes('tsx'))) args.push('--import', import.meta.resolve('tsx'));
  return args;
}

const IGNORED = /(^|[\\/])(node_modules|\.git|\.skein|dist)([\\/]|$)/;

/** Starts one child; resolves with it and what it printed once it listens. */
function startChild(options: Required<Pick<WatchStudioOptions, 'module' | 'cwd'>> & WatchStudioOptions, port: number) {
  const child = spawn(process.execPath, [...childArgs(), CHILD], {
    env: {
      ...process.env,
      SKEIN_STUDIO_OPTIONS: JSON.stringify({ module: options.module, port, store: options.store, cwd: options.cwd }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise<{ child: ChildProcess; url: string; store: string }>((done, fail) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{"url"'));
      if (!line) return;
      const { url, store } = JSON.parse(line) as { url: string; store: string };
      done({ child, url, store });
    });
    child.once('exit', (code, signal) =>
      fail(new Error(`the studio process exited (${code ?? signal}) before it listened`)),
    );
  });
}

const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });

/** Starts a studio that reloads its module on change (see the module comment). */
export async function watchStudio(options: WatchStudioOptions): Promise<RunningStudio> {
  if (typeof options.module !== 'string')
    studioError('watchStudio takes a module path (the module loads in a child process).');
  const cwd = options.cwd ?? process.cwd();
  const file = isAbsolute(options.module) ? options.module : resolve(cwd, options.module);
  const log = options.log ?? (() => undefined);
  const first = await startChild({ ...options, module: file, cwd }, options.port ?? 0);
  const port = Number(new URL(first.url).port);
  let child = first.child;
  let reloading: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const reload = (): void => {
    reloading = reloading.then(async () => {
      if (closed) return;
      await stopChild(child);
      try {
        child = (await startChild({ ...options, module: file, cwd }, port)).child;
        log(`skein studio: reloaded ${options.module}`);
      } catch (error) {
        log(`skein studio: ${options.module} did not load (${String(error)}); fix it and save again`);
      }
    });
  };
  const watcher: FSWatcher = watch(dirname(file), { recursive: true }, (_event, name) => {
    if (name && IGNORED.test(String(name))) return;
    clearTimeout(timer);
    timer = setTimeout(reload, 150);
  });
  return {
    url: first.url,
    store: first.store,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      watcher.close();
      await reloading;
      await stopChild(child);
    },
  };
}
