import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Loaded unbuilt by the full tier's global setup: imports node modules only.

const run = promisify(execFile);

/** Where and how the server process runs. */
export interface PostgresProcessOptions {
  /** Debian's PostgreSQL `bin` directory. */
  bin: string;
  /** The server's temp dir (its log and socket; removed by the watchdog if the test process dies). */
  dir: string;
  /** The data directory `initdb` made. */
  data: string;
  port: number;
  fsync: 'on' | 'off';
  /** The `postgres` user's ids when this process is root. */
  ids: { uid?: number; gid?: number };
}

async function waitReady(bin: string, port: number, child: ChildProcess, log: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`postgres exited with ${child.exitCode}:\n${await log()}`);
    const ok = await run(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]).then(
      () => true,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 60 s:\n${await log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The `postgres` process of one data directory: started (again), SIGKILLed, and watched over. */
export class PostgresProcess {
  readonly #o: PostgresProcessOptions;
  readonly #logFile: string;
  #child: ChildProcess | undefined;
  #running: Promise<unknown> | undefined;
  #watchdog: ChildProcess | undefined;

  constructor(options: PostgresProcessOptions) {
    this.#o = options;
    this.#logFile = join(options.dir, 'server.log');
  }

  /** The last 20 lines of the server's log. */
  #log(): Promise<string> {
    return readFile(this.#logFile, 'utf8').then(
      (t) => t.split('\n').slice(-20).join('\n'),
      () => '',
    );
  }

  /** Starts the server (and a watchdog that kills it if the test process dies); resolves once it accepts connections. */
  async start(): Promise<void> {
    const { bin, dir, data, port, fsync, ids } = this.#o;
    const args = [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `fsync=${fsync}`,
      '-c',
      'max_connections=300',
    ];
    const out = openSync(this.#logFile, 'a');
    const child = spawn(join(bin, 'postgres'), args, { detached: true, stdio: ['ignore', out, out], cwd: dir, ...ids });
    this.#child = child;
    this.#running = new Promise((resolve) => child.once('exit', () => resolve((this.#running = undefined))));
    const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${child.pid} 2>/dev/null; do sleep 1; done; kill -9 -${child.pid} 2>/dev/null; kill -0 ${process.pid} 2>/dev/null || rm -rf '${dir}'`;
    this.#watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
    this.#watchdog.unref();
    await waitReady(bin, port, child, () => this.#log());
  }

  /** SIGKILLs the server and all its processes; resolves once it exited (at once when it is not running). */
  async kill(): Promise<void> {
    const pid = this.#child?.pid;
    const exited = this.#running;
    if (pid === undefined || exited === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
  }

  /** Ends the watchdog (before the directory is removed by the caller). */
  stopWatchdog(): void {
    this.#watchdog?.kill();
  }
}
