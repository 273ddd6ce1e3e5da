import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Committed writes (single calls, step batches) between two checkpoints: about SQLite's own 1,000 pages. */
const CHECKPOINT_EVERY = 200;

/** The worker: its own connection to the file, running a PASSIVE checkpoint per message. */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
parentPort.on('message', (message) => {
  if (message === 'close') {
    try { db?.close(); } catch {}
    parentPort.close();
    return;
  }
  try {
    if (!db) {
      db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
      db.pragma('synchronous = FULL');
    }
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error && error.message ? error.message : error) });
  }
});
`;

/**
 * WAL checkpoints on a worker thread. The session connection runs with `wal_autocheckpoint = 0`, so a
 * commit never copies the WAL into the database file (and syncs both) on the event loop; this runs a
 * PASSIVE checkpoint (it never blocks a writer or a reader) on its own connection every
 * CHECKPOINT_EVERY committed writes. If the worker fails, `fallBack` gives checkpoints back to
 * SQLite's automatic ones on the session connection.
 */
export class Checkpointer {
  readonly #path: string;
  readonly #busyTimeoutMs: number;
  readonly #fallBack: () => void;
  #worker: Worker | undefined;
  #since = 0;
  #busy = false;
  #broken = false;

  constructor(path: string, busyTimeoutMs: number, fallBack: () => void) {
    this.#path = path;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#fallBack = fallBack;
  }

  /** After a committed transaction that carried `units` writes: checkpoints when enough have piled up. */
  committed(units: number): void {
    this.#since += units;
    if (this.#since < CHECKPOINT_EVERY || this.#busy || this.#broken) return;
    this.#since = 0;
    this.#busy = true;
    this.#worker ??= this.#spawn();
    this.#worker.postMessage('checkpoint');
  }

  #spawn(): Worker {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(SOURCE, {
      eval: true,
      workerData: { driver, path: this.#path, busyTimeoutMs: this.#busyTimeoutMs },
    });
    worker.unref();
    worker.on('message', (message: { ok: boolean }) => {
      this.#busy = false;
      if (!message.ok) this.#break();
    });
    worker.on('error', () => this.#break());
    return worker;
  }

  #break(): void {
    if (this.#broken) return;
    this.#broken = true;
    this.#worker = undefined;
    this.#fallBack();
  }

  /** Closes the worker's connection (its last checkpoint, if it is the file's last connection, runs there). */
  close(): void {
    this.#worker?.postMessage('close');
    this.#worker = undefined;
  }
}
