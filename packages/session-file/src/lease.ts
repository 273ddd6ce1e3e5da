import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import { leaseHolderGone, leaseOwnerClosed, leaseOwnerOpened, processAlive, SessionConflictError } from '@skein/core';
import { writeFileAtomic } from './atomic-write.js';
import { errnoCode } from './errors.js';

/** What a lock file holds (`.skein.lock` in the session directory). */
export interface LockInfo {
  pid: number;
  host: string;
  /** When the holding process started (ISO 8601). */
  process_started_at: string;
  /** When the lock was taken (ISO 8601). */
  acquired_at: string;
  /** Tells two holders in one process apart. */
  token: string;
  /** Linux: the holder's start time in clock ticks (from /proc), to detect a reused pid. */
  proc_start?: string;
}

/** Locks held by this process, by file: released at process exit. */
const heldLocks = new Map<string, string>();
let exitHookInstalled = false;

function releaseAllSync(): void {
  for (const [file, token] of heldLocks) {
    try {
      if ((JSON.parse(readFileSync(file, 'utf8')) as LockInfo).token === token) unlinkSync(file);
    } catch {
      // Already gone or unreadable: nothing of ours to remove.
    }
  }
  heldLocks.clear();
}

/** Linux: field 22 of /proc/<pid>/stat (start time since boot); `undefined` elsewhere. */
function procStart(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * True when the lock's holder is certainly gone, by core's rules for a lease that never expires (same
 * host, and its pid is dead, or it is this process and no lock of this process holds it), or its pid
 * now belongs to another process (Linux).
 */
export function isStale(info: LockInfo): boolean {
  const holder = { owner: info.token, pid: info.pid, host: info.host, expires_at: Number.POSITIVE_INFINITY };
  if (leaseHolderGone(holder, Date.now(), os.hostname())) return true;
  if (info.host !== os.hostname() || info.pid === process.pid) return false;
  const now = info.proc_start === undefined ? undefined : procStart(info.pid);
  return now !== undefined && now !== info.proc_start;
}

/** The holder as messages name it. */
export function describeLock(info: LockInfo): string {
  return `process ${info.pid} on ${info.host}, since ${info.acquired_at}`;
}

/** The lock file's holder; `undefined` when there is none (or it is not a lock). */
export async function readLock(file: string): Promise<LockInfo | undefined> {
  try {
    const info = JSON.parse(await fs.readFile(file, 'utf8')) as LockInfo;
    return typeof info.pid === 'number' && typeof info.token === 'string' ? info : undefined;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The file store's lease on one session: an exclusive, cross-process lock on the session directory
 * (it never expires; core's rules say when its holder is gone), taken with an atomic create-if-absent
 * (the lock file is written complete before it appears). A lock whose holder died on this host is
 * recovered under a short-lived `.break` file, so two recoverers cannot both win.
 */
export class FileLease {
  readonly file: string;
  readonly #token = randomBytes(8).toString('hex');
  #owned = false;
  /** This process's `.break` file is in place: it broke a stale lock and has not ended the recovery. */
  #breaking = false;

  constructor(file: string) {
    this.file = file;
  }

  /**
   * Takes the lock, or throws `held(holder)` (the book's `SessionConflictError`). Returns what it found of a
   * writer that died: `{ stale }` when it replaced a stale lock, `{}` when another recoverer died
   * before it finished (its `.break` file was left), else `undefined`. After a recovery the caller
   * cleans up after the dead writers, then calls `endRecovery()`: until then this process's `.break`
   * file stays, so that a crash during the cleanup is seen by the next writer.
   */
  async acquire(what: string, held: (holder: LockInfo) => Error): Promise<{ stale?: LockInfo } | undefined> {
    if (this.#owned) return undefined;
    let recovered: LockInfo | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await writeFileAtomic(this.file, JSON.stringify(this.#info(), null, 2), 'create');
        this.#owned = true;
        heldLocks.set(this.file, this.#token);
        leaseOwnerOpened(this.#token);
        if (!exitHookInstalled) {
          exitHookInstalled = true;
          process.once('exit', releaseAllSync);
        }
        const cut = await this.#removeDeadBreaker();
        return recovered ? { stale: recovered } : cut ? {} : undefined;
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST') throw error;
      }
      const info = await readLock(this.file);
      if (info === undefined) continue; // released meanwhile, or unreadable: try again
      if (!isStale(info)) throw held(info);
      if (await this.#breakStale(info, what)) recovered = info;
    }
    throw new SessionConflictError(
      `${what}: could not take the lock ${this.file}; another process keeps taking it. Retry later.`,
      { location: this.file },
    );
  }

  /** Ends a recovery reported by `acquire`: removes this process's `.break` file. */
  async endRecovery(): Promise<void> {
    if (!this.#breaking) return;
    this.#breaking = false;
    await fs.unlink(`${this.file}.break`).catch(() => undefined);
  }

  /** Releases the lock if this instance holds it (and the file is still ours). */
  async release(): Promise<void> {
    if (!this.#owned) return;
    this.#forget();
    const info = await readLock(this.file).catch(() => undefined);
    if (info?.token === this.#token) await fs.unlink(this.file).catch(() => undefined);
  }

  /** Forgets the lock without touching the file (the session directory was removed with it). */
  forget(): void {
    this.#forget();
  }

  #forget(): void {
    this.#owned = false;
    heldLocks.delete(this.file);
    leaseOwnerClosed(this.#token);
  }

  #info(): LockInfo {
    const proc = procStart('self');
    return {
      pid: process.pid,
      host: os.hostname(),
      process_started_at: new Date(Date.now() - process.uptime() * 1000).toISOString(),
      acquired_at: new Date().toISOString(),
      token: this.#token,
      ...(proc === undefined ? {} : { proc_start: proc }),
    };
  }

  /**
   * Removes a `.break` file whose recoverer died on this host (killed after it removed the stale
   * lock, before it removed its `.break`): nothing else would, as the lock is free from then on.
   */
  async #removeDeadBreaker(): Promise<boolean> {
    const breaker = `${this.file}.break`;
    const other = await readLock(breaker).catch(() => undefined);
    if (!other || other.host !== os.hostname() || other.pid === process.pid || processAlive(other.pid)) return false;
    await fs.unlink(breaker).catch(() => undefined);
    return true;
  }

  /** Removes the stale lock under the `.break` file; true if this call removed it. */
  async #breakStale(stale: LockInfo, what: string): Promise<boolean> {
    const breaker = `${this.file}.break`;
    try {
      await writeFileAtomic(breaker, JSON.stringify(this.#info()), 'create');
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
      const other = await readLock(breaker).catch(() => undefined);
      if (other === undefined) return false; // finished meanwhile: try again
      const recovererGone = other.host === os.hostname() && other.pid !== process.pid && !processAlive(other.pid);
      if (!recovererGone) {
        throw new SessionConflictError(
          `${what}: process ${other.pid} is recovering the stale lock ${this.file}; retry in a moment.`,
          { location: this.file },
        );
      }
      await fs.unlink(breaker).catch(() => undefined); // its recoverer died too
      return false;
    }
    // The `.break` file stays until the recovery ends (`endRecovery`), also when this process is killed
    // before it takes the lock: the next writer then knows a recovery was cut and cleans up after it.
    let broke = false;
    try {
      const now = await readLock(this.file);
      if (now?.token !== stale.token) return false;
      await fs.unlink(this.file);
      broke = true;
      this.#breaking = true;
      return true;
    } finally {
      if (!broke) await fs.unlink(breaker).catch(() => undefined);
    }
  }
}
