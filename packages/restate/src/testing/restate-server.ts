/**
 * Restate's own server for tests: installed from the npm registry into a cache on first use (not by
 * every `npm ci`), started on random loopback ports with a throwaway data directory, stopped and
 * removed after.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { access, mkdir, mkdtemp, open, rm, unlink } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The server version the tests run (the SDK's compatibility matrix allows 1.3 and later). */
export const RESTATE_SERVER_VERSION = '1.7.12';

const cacheDir = (): string =>
  process.env['SKEIN_RESTATE_CACHE'] ??
  join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'skein', `restate-server-${RESTATE_SERVER_VERSION}`);

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The restate-server binary, installing `@restatedev/restate-server` into the cache when missing. */
export async function ensureRestateServer(): Promise<string> {
  if (process.env['SKEIN_RESTATE_SERVER']) return process.env['SKEIN_RESTATE_SERVER'];
  const dir = cacheDir();
  const bin = join(dir, 'node_modules', '.bin', 'restate-server');
  if (await exists(bin)) return bin;
  await mkdir(dir, { recursive: true });
  const lock = join(dir, '.installing');
  for (let waited = 0; ; waited += 500) {
    try {
      await (await open(lock, 'wx')).close();
      break;
    } catch {
      if (await exists(bin)) return bin;
      if (waited > 300_000)
        throw new Error(
          `Another process has been installing restate-server into ${dir} for 5 minutes; remove ${lock} if none is.`,
        );
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    if (!(await exists(bin))) {
      await run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--no-save',
          '--prefix',
          dir,
          `@restatedev/restate-server@${RESTATE_SERVER_VERSION}`,
        ],
        { maxBuffer: 16 * 1024 * 1024 },
      );
    }
  } finally {
    await unlink(lock).catch(() => undefined);
  }
  return bin;
}

/** Where a restate-server listens (JSON: what a test runner hands to the tests that share one server). */
export interface RestateServerInfo {
  /** `http://127.0.0.1:<port>`: the ingress, where clients call handlers. */
  ingressUrl: string;
  /** `http://127.0.0.1:<port>`: the admin API, where workers are registered. */
  adminUrl: string;
}

/** A running restate-server. */
export class RestateServer {
  readonly #process: ChildProcess | undefined;
  readonly #baseDir: string;
  readonly ingressUrl: string;
  readonly adminUrl: string;

  private constructor(child: ChildProcess | undefined, baseDir: string, info: RestateServerInfo) {
    this.#process = child;
    this.#baseDir = baseDir;
    this.ingressUrl = info.ingressUrl;
    this.adminUrl = info.adminUrl;
  }

  /** A server started elsewhere (e.g. once for a whole test run): the same calls; `stop()` leaves it running. */
  static at(info: RestateServerInfo): RestateServer {
    return new RestateServer(undefined, '', info);
  }

  /** Where this server listens. */
  get info(): RestateServerInfo {
    return { ingressUrl: this.ingressUrl, adminUrl: this.adminUrl };
  }

  /** Starts a single-node server on random 127.0.0.1 ports; resolves once its admin API answers. */
  static async start(): Promise<RestateServer> {
    const bin = await ensureRestateServer();
    const baseDir = await mkdtemp(join(tmpdir(), 'skein-restate-'));
    const child = spawn(
      bin,
      [
        '--base-dir',
        baseDir,
        '--node-name',
        'n1',
        '--no-logo',
        '--listen-mode',
        'tcp',
        '--use-random-ports',
        'true',
        '--bind-ip',
        '127.0.0.1',
      ],
      {
        env: { ...process.env, RESTATE_LOG_FORMAT: 'json', RESTATE_DISABLE_TELEMETRY: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const ports = new Map<string, number>();
    const found = new Promise<void>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
      lines.on('line', (line) => {
        const port = /"server\.port":(\d+),"server_name":"([a-z-]+)"/.exec(line);
        if (port?.[1] && port[2]) ports.set(port[2], Number(port[1]));
        if (ports.has('http-ingress-server') && ports.has('admin-api-server')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`restate-server exited with ${code} before listening`)));
      setTimeout(() => reject(new Error('restate-server did not report its ports within 60 s')), 60_000).unref();
    });
    try {
      await found;
    } catch (error) {
      child.kill('SIGKILL');
      await rm(baseDir, { recursive: true, force: true });
      throw error;
    }
    const server = new RestateServer(child, baseDir, {
      ingressUrl: `http://127.0.0.1:${ports.get('http-ingress-server') ?? 0}`,
      adminUrl: `http://127.0.0.1:${ports.get('admin-api-server') ?? 0}`,
    });
    await server.#waitHealthy();
    return server;
  }

  async #waitHealthy(): Promise<void> {
    for (let i = 0; i < 300; i++) {
      const ok = await fetch(`${this.adminUrl}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('restate-server admin API did not become healthy within 30 s');
  }

  /** Registers (or re-registers) a worker's endpoint, e.g. `http://127.0.0.1:9080`. */
  async register(uri: string): Promise<void> {
    const response = await fetch(`${this.adminUrl}/deployments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri, force: true }),
    });
    if (!response.ok) throw new Error(`Registering ${uri} failed: ${response.status} ${await response.text()}`);
  }

  /** Calls a handler through the ingress and returns its JSON answer. */
  async call<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await fetch(`${this.ingressUrl}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Starts a handler without waiting for it (`<path>/send`); returns the invocation id to `attach` to. */
  async send(path: string, body: unknown): Promise<string> {
    const { invocationId } = await this.call<{ invocationId: string }>(`${path}/send`, body);
    return invocationId;
  }

  /** Waits for an invocation's answer (`/restate/invocation/<id>/attach`), e.g. one started with `send`. */
  async attach<T>(invocationId: string): Promise<T> {
    const response = await fetch(`${this.ingressUrl}/restate/invocation/${invocationId}/attach`);
    const text = await response.text();
    if (!response.ok) throw new Error(`attaching to ${invocationId} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Stops the server and removes its data (nothing for a server made with `at`). */
  async stop(): Promise<void> {
    const child = this.#process;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    await rm(this.#baseDir, { recursive: true, force: true });
  }
}
