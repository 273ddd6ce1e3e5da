import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * Syncs in flight at once. One: commits made while it runs share the next (more writes per sync).
 * Two stored fewer messages per second beside busy conversations (bench/ `sqlite-loop`).
 */
const MAX_RUNNING = 1;

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * `synchronous=FULL` off the event loop. The connection commits at `NORMAL` (the COMMIT writes the
 * WAL into the OS's cache, no fsync) and this syncs the WAL file on libuv's thread pool: a commit is
 * acknowledged once a sync that started after its COMMIT has finished. Up to MAX_RUNNING syncs run at
 * once; commits made while they all run wait for the next one, which covers them all (the WAL is
 * appended in order, so one sync makes every frame before it durable). The first sync also syncs the directory (the WAL file's entry), as SQLite
 * does for a new WAL.
 */
export class WalSync {
  readonly #wal: string;
  #handle: Promise<FileHandle> | undefined;
  #directorySynced = false;
  readonly #running = new Set<Promise<void>>();
  #waiting: Waiter[] = [];

  /** @param database the database file (its WAL is `<database>-wal`). */
  constructor(database: string) {
    this.#wal = `${database}-wal`;
  }

  /** Resolves once the WAL, as it is now, is on disk; rejects with the sync's error. */
  request(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      if (this.#running.size < MAX_RUNNING) this.#start();
    });
  }

  #start(): void {
    const batch = this.#waiting;
    this.#waiting = [];
    const running: Promise<void> = this.#sync()
      .then(
        () => {
          for (const w of batch) w.resolve();
        },
        (cause: unknown) => {
          this.#handle = undefined; // reopened by the next sync
          const detail = cause instanceof Error ? cause.message : String(cause);
          const error = new Error(
            `the WAL sync after COMMIT failed (${detail}): the write is stored but may not survive a power loss`,
            { cause },
          );
          for (const w of batch) w.reject(error);
        },
      )
      .finally(() => {
        this.#running.delete(running);
        if (this.#waiting.length > 0 && this.#running.size < MAX_RUNNING) this.#start();
      });
    this.#running.add(running);
  }

  async #sync(): Promise<void> {
    this.#handle ??= open(this.#wal, 'r+');
    await (await this.#handle).datasync();
    if (this.#directorySynced) return;
    const directory = await open(path.dirname(this.#wal), 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
    this.#directorySynced = true;
  }

  /** Waits for the syncs asked for so far, then closes the WAL's file handle. */
  async close(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
    const handle = this.#handle;
    this.#handle = undefined;
    const file = await handle?.catch(() => undefined);
    await file?.close();
  }
}
