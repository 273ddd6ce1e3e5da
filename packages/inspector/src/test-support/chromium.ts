import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Installs Debian's chromium with apt-get when it is missing (as root or through passwordless sudo), once across test files. */
async function ensureChromiumInstalled(): Promise<string> {
  const found = await run('sh', ['-c', 'command -v chromium']).then(
    (r) => r.stdout.trim(),
    () => '',
  );
  if (found) return found;
  const sudo = typeof process.getuid === 'function' && process.getuid() === 0 ? '' : 'sudo -n ';
  const apt = `${sudo}env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q`;
  const script = `command -v chromium >/dev/null || { ${apt} update && ${apt} install -y chromium; }`;
  try {
    await run('flock', ['/tmp/skein-session-s3-apt.lock', 'sh', '-c', script], {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 900_000,
    });
  } catch (error) {
    throw new Error(
      `The page tests need Debian's chromium and installing it failed; run: sudo apt-get update && sudo apt-get install -y chromium (${String(error).slice(0, 500)})`,
      { cause: error },
    );
  }
  return (await run('sh', ['-c', 'command -v chromium'])).stdout.trim();
}

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(error: Error): void;
}

type Listener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

/**
 * Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: commands
 * on fd 3, answers on fd 4, each message NUL-terminated), so no WebSocket client is needed.
 */
export class Chromium {
  readonly #child: ChildProcess;
  readonly #profile: string;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<string, Set<Listener>>();
  #nextId = 1;
  #buffer = '';

  private constructor(child: ChildProcess, profile: string) {
    this.#child = child;
    this.#profile = profile;
    const out = child.stdio[4] as Readable;
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => this.#read(chunk));
  }

  static async launch(): Promise<Chromium> {
    const binary = await ensureChromiumInstalled();
    const profile = await mkdtemp(join(tmpdir(), 'skein-chromium-'));
    const args = [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--no-default-browser-check',
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
      'about:blank',
    ];
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    return new Chromium(child, profile);
  }

  /** Sends one command (to the browser, or to a page's session) and resolves with its result. */
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const message = JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      (this.#child.stdio[3] as Writable).write(`${message}\0`);
    });
  }

  /** Calls `listener` for every event `method`; returns a function that stops it. */
  on(method: string, listener: Listener): () => void {
    const set = this.#listeners.get(method) ?? new Set();
    set.add(listener);
    this.#listeners.set(method, set);
    return () => set.delete(listener);
  }

  /** Resolves with the next event `method` of `sessionId`. */
  next(method: string, sessionId: string, timeoutMs = 15_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`No ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      const off = this.on(method, (params, sid) => {
        if (sid !== sessionId) return;
        clearTimeout(timer);
        off();
        resolve(params);
      });
    });
  }

  /** Opens a new page and attaches to it; resolves with its session id. */
  async newPage(): Promise<string> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    return sessionId;
  }

  /** Evaluates `expression` in the page and returns its value. */
  async evaluate<T>(sessionId: string, expression: string): Promise<T> {
    const out = (await this.send(
      'Runtime.evaluate',
      { expression, returnByValue: true, awaitPromise: true },
      sessionId,
    )) as { result: { value: T }; exceptionDetails?: unknown };
    if (out.exceptionDetails) throw new Error(`Page threw: ${JSON.stringify(out.exceptionDetails).slice(0, 500)}`);
    return out.result.value;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    await this.send('Browser.close').catch(() => undefined);
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    await rm(this.#profile, { recursive: true, force: true });
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    let end = this.#buffer.indexOf('\0');
    while (end >= 0) {
      const raw = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      end = this.#buffer.indexOf('\0');
      const msg = JSON.parse(raw) as {
        id?: number;
        method?: string;
        params?: Record<string, unknown>;
        result?: Record<string, unknown>;
        error?: { message: string };
        sessionId?: string;
      };
      if (msg.id !== undefined) {
        const pending = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.error) pending?.reject(new Error(msg.error.message));
        else pending?.resolve(msg.result ?? {});
      } else if (msg.method) {
        for (const listener of this.#listeners.get(msg.method) ?? []) listener(msg.params ?? {}, msg.sessionId);
      }
    }
  }
}

/** What a page did while it loaded: its console errors and uncaught exceptions, and every request it made. */
export interface PageWatch {
  errors: string[];
  requests: string[];
  stop(): void;
}

/** Enables the page's domains and records errors and requests from now on. */
export async function watchPage(browser: Chromium, sessionId: string): Promise<PageWatch> {
  const errors: string[] = [];
  const requests: string[] = [];
  const offs = [
    browser.on('Runtime.consoleAPICalled', (p, sid) => {
      if (sid === sessionId && p['type'] === 'error') errors.push(JSON.stringify(p['args']).slice(0, 300));
    }),
    browser.on('Runtime.exceptionThrown', (p, sid) => {
      if (sid === sessionId) errors.push(JSON.stringify(p['exceptionDetails']).slice(0, 300));
    }),
    browser.on('Log.entryAdded', (p, sid) => {
      const entry = p['entry'] as { level?: string; text?: string } | undefined;
      if (sid === sessionId && entry?.level === 'error') errors.push(entry.text ?? 'log error');
    }),
    browser.on('Network.requestWillBeSent', (p, sid) => {
      const request = p['request'] as { url?: string } | undefined;
      if (sid === sessionId && request?.url) requests.push(request.url);
    }),
  ];
  for (const domain of ['Page', 'Runtime', 'Log', 'Network']) await browser.send(`${domain}.enable`, {}, sessionId);
  return { errors, requests, stop: () => offs.forEach((off) => off()) };
}

/** Navigates and waits for the load event. */
export async function load(browser: Chromium, sessionId: string, url: string): Promise<void> {
  const loaded = browser.next('Page.loadEventFired', sessionId);
  await browser.send('Page.navigate', { url }, sessionId);
  await loaded;
}
