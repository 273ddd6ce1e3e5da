import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { processAlive, SessionConflictError, SessionNotFoundError, serializeSessionData } from '@skein/core';
import { writeFileAtomic, type WriteMode } from './atomic-write.js';
import { errnoCode, fsError } from './errors.js';
import { RootGuard } from './root-guard.js';
import { FileLease } from './lease.js';
import type { SessionPaths } from './session-paths.js';
import { SessionViews } from './session-views.js';

/** Numbered files of a directory (`message_<n>.json`, `transition_<n>.json`), sorted by number; `undefined` without the directory. */
export async function numbered(dir: string, prefix: string, root: string): Promise<number[] | undefined> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw fsError(error, 'list', dir, root);
  }
  const pattern = new RegExp(`^${prefix}_(0|[1-9][0-9]*)\\.json$`);
  return names
    .flatMap((n) => pattern.exec(n)?.[1] ?? [])
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * Removes the temp files that writers which died on this host left in the middle of a write (never
 * stored data). After a recovery (a stale lock replaced, or a recoverer that died before it finished)
 * it looks everywhere below and removes those of every process that is gone, the stale holder
 * first among them; otherwise only here, for lock temp files: a process killed while writing its
 * lock file never held the lock, so no stale lock names it.
 */
async function removeTempFiles(dir: string, recovery: { stalePid: number | undefined } | undefined): Promise<void> {
  const pattern = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;
  const names = await fs.readdir(dir, { recursive: recovery !== undefined }).catch(() => [] as string[]);
  const dead = names.filter((n) => {
    const pid = Number(pattern.exec(path.basename(n))?.[1]);
    return Number.isInteger(pid) && pid !== process.pid && (pid === recovery?.stalePid || !processAlive(pid));
  });
  await Promise.all(dead.map((n) => fs.unlink(path.join(dir, n)).catch(() => undefined)));
}

/** What the record classes of a file repository (`AgentFiles`, `OrchestratorFiles`) work with. */
export interface FileStore {
  paths: SessionPaths;
  files: SessionFiles;
  /** How many files a listing reads at once. */
  concurrency: number;
}

/**
 * The write side of a file repository: the session locks it holds, atomic JSON writes with errors
 * that name the file, and a cache of the files and directories known to exist (so appending a
 * message costs one atomic write, not a round of checks).
 */
export class SessionFiles {
  readonly #paths: SessionPaths;
  readonly #locks = new Map<string, FileLease>();
  readonly #locking = new Map<string, Promise<void>>();
  readonly #known = new Set<string>();
  readonly #guard: RootGuard;
  /** This writer's views of the sessions it loaded (`beginView`). */
  readonly views: SessionViews;

  constructor(paths: SessionPaths) {
    this.#paths = paths;
    this.#guard = new RootGuard(paths.root);
    this.views = new SessionViews(paths);
  }

  /** True when this instance holds (or is taking) the session's lock. */
  holds(sessionId: string): boolean {
    return this.#locking.has(sessionId);
  }

  /** Throws `SessionCorruptError` when `dir` leads out of the storage root through a symbolic link (checked before writing in it). */
  contained(dir: string): Promise<void> {
    return this.#guard.check(dir);
  }

  /**
   * Makes sure the session directory exists and this instance holds its lock (taken once, on first
   * write, and again after a release): the claim. It fails with `SessionConflictError` before
   * anything is written when this writer's view is stale (`SessionViews`); the lock is then given back.
   */
  async writable(sessionId: string): Promise<void> {
    let taking = this.#locking.get(sessionId);
    if (!taking) {
      taking = (async () => {
        this.views.checkHolder(sessionId);
        const dir = this.#paths.session(sessionId);
        await this.mkdir(dir);
        const lock = new FileLease(this.#paths.lockFile(sessionId));
        const what = `Session ${sessionId} in ${this.#paths.root}`;
        const recovery = await lock.acquire(what, (holder) => this.views.held(sessionId, holder));
        try {
          await removeTempFiles(
            dir,
            recovery && { stalePid: recovery.stale?.host === os.hostname() ? recovery.stale.pid : undefined },
          );
          await lock.endRecovery();
          await this.views.claim(sessionId);
        } catch (error) {
          await lock.release();
          throw error;
        }
        this.#locks.set(sessionId, lock);
      })();
      this.#locking.set(sessionId, taking);
      taking.catch(() => this.#locking.delete(sessionId));
    }
    await taking;
  }

  /** Writes `value` as 2-space JSON (bytes encoded); `create` refuses an existing file with `SessionConflictError`. */
  async write(file: string, value: unknown, mode: WriteMode, what: string): Promise<void> {
    await this.#guard.check(path.dirname(file));
    try {
      await writeFileAtomic(file, serializeSessionData(value), mode);
    } catch (error) {
      if (mode === 'create' && errnoCode(error) === 'EEXIST') {
        throw new SessionConflictError(`${what} already exists (${file}); it was not overwritten.`, {
          location: file,
          cause: error,
        });
      }
      throw fsError(error, 'write', file, this.#paths.root);
    }
  }

  async mkdir(dir: string): Promise<void> {
    if (this.#known.has(dir)) return;
    await this.#guard.check(dir);
    try {
      await fs.mkdir(dir, { recursive: true });
    } catch (error) {
      throw fsError(error, 'create the directory', dir, this.#paths.root);
    }
    this.#known.add(dir);
  }

  async exists(p: string): Promise<boolean> {
    if (this.#known.has(p)) return true;
    try {
      await fs.stat(p);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return false;
      throw fsError(error, 'read', p, this.#paths.root);
    }
    this.#known.add(p);
    return true;
  }

  /** Throws `SessionNotFoundError(message)` unless `file` exists. */
  async require(file: string, message: string): Promise<void> {
    if (!(await this.exists(file))) throw new SessionNotFoundError(message, { location: file });
  }

  /** Forgets what is cached after a directory was removed (and, for a whole session, its lock, which went with it). */
  forget(sessionId?: string): void {
    this.#known.clear();
    if (sessionId === undefined) return;
    this.#locks.get(sessionId)?.forget();
    this.#locks.delete(sessionId);
    this.#locking.delete(sessionId);
  }

  /** Releases the session's lock, if held (the view stays: the next claim checks it). */
  async release(sessionId: string): Promise<void> {
    const taking = this.#locking.get(sessionId);
    this.#locking.delete(sessionId);
    await taking?.catch(() => undefined);
    const lock = this.#locks.get(sessionId);
    this.#locks.delete(sessionId);
    this.views.book.drop(sessionId);
    await lock?.release();
  }

  /** Releases every lock held. */
  async close(): Promise<void> {
    const locks = [...this.#locks.values()];
    for (const sessionId of this.#locks.keys()) this.views.book.drop(sessionId);
    this.#locks.clear();
    this.#locking.clear();
    this.#known.clear();
    await Promise.all(locks.map((lock) => lock.release()));
  }
}
