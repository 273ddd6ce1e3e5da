import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import { LeaseBook } from '@skein/core';
import { writeFileAtomic } from './atomic-write.js';
import { errnoCode, fsError } from './errors.js';
import { describeLock, isStale, readLock, type LockInfo } from './lease.js';
import type { SessionPaths } from './session-paths.js';

/**
 * A writer never goes on from a stale view. Every claim of a session (its lock taken for a first
 * write) writes a new random generation to `session_<id>/.skein.writer`, while it holds the lock. A
 * writer's view (`begin`, before its session manager reads the session) remembers the generation and
 * whether another live writer held the lock; its next claim fails when the generation changed since
 * or a holder was seen, and otherwise becomes its own generation. The rules and their messages are
 * core's (`LeaseBook`); this keeps the generation file.
 *
 * Why `begin` reads the generation first, then the lock, and the caller reads the data last: take a
 * writer W, whose claim takes the lock, writes its generation, writes data, and releases the lock.
 * - W wrote its generation after our read of it: our next claim reads another generation and fails
 *   (generations are random and every claim writes one, so it never comes back to ours).
 * - W wrote it before our read: W took the lock before that too. If W still held the lock when we
 *   looked, the view is tainted and our next claim fails (W may write after our data read, even if it
 *   dies later without releasing). If it did not, W had released it (or died: a stale lock, whose
 *   holder writes nothing more) before we looked, so all of W's writes came before our data read and
 *   our view has them.
 * Generations are written only under the lock, so at our claim (under the lock) nobody changes it.
 */
export class SessionViews {
  readonly #paths: SessionPaths;
  /** This writer's book: its views, and the one set of messages of a refused claim. */
  readonly book: LeaseBook<string>;

  constructor(paths: SessionPaths) {
    this.#paths = paths;
    this.book = new LeaseBook({
      session: (sessionId) => `Session ${sessionId} in ${paths.root}`,
      location: (sessionId) => paths.lockFile(sessionId),
      whenGone: 'if its process is gone, remove its lock file (.skein.lock in the session directory)',
      takeover: false,
    });
  }

  /** Starts this writer's view of `sessionId` (read the generation, then the lock). */
  async begin(sessionId: string): Promise<void> {
    const generation = await this.#generation(sessionId);
    const lock = await readLock(this.#paths.lockFile(sessionId)).catch(() => undefined); // unreadable: the claim reports it
    this.book.beginView(sessionId, { generation, heldBy: lock && !isStale(lock) ? describeLock(lock) : undefined });
  }

  /** Before a claim: fails (before anything is taken) when another writer held the session at the view. */
  checkHolder(sessionId: string): void {
    this.book.checkViewHolder(sessionId);
  }

  /** The claim found the lock held by another live writer. */
  held(sessionId: string, holder: LockInfo): Error {
    return this.book.heldError(sessionId, describeLock(holder));
  }

  /**
   * The claim, under the lock: fails when another writer claimed the session since this writer's
   * view; then writes a new generation, which becomes the view (without a view: only writes it).
   */
  async claim(sessionId: string): Promise<void> {
    const file = this.#paths.writerFile(sessionId);
    if (this.book.view(sessionId)) {
      this.book.checkViewHolder(sessionId);
      const now = await this.#generation(sessionId);
      this.book.checkView(sessionId, now, describeWriter(now));
    }
    const text = JSON.stringify({
      generation: randomBytes(8).toString('hex'),
      pid: process.pid,
      host: os.hostname(),
      claimed_at: new Date().toISOString(),
    });
    try {
      await writeFileAtomic(file, text, 'replace');
    } catch (error) {
      throw fsError(error, 'write', file, this.#paths.root);
    }
    this.book.hold(sessionId, text);
  }

  /** After this writer deleted the session: its view is the empty session. */
  emptied(sessionId: string): void {
    this.book.emptied(sessionId);
  }

  async #generation(sessionId: string): Promise<string | undefined> {
    const file = this.#paths.writerFile(sessionId);
    try {
      return await fs.readFile(file, 'utf8');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw fsError(error, 'read', file, this.#paths.root);
    }
  }
}

/** ` (process 12 on host-a, from ...)` from a generation's text, when it says; else nothing. */
function describeWriter(text: string | undefined): string {
  if (text === undefined) return ' (it deleted the session)';
  try {
    const doc = JSON.parse(text) as { pid?: unknown; host?: unknown; claimed_at?: unknown };
    return typeof doc.pid === 'number' && typeof doc.host === 'string'
      ? ` (process ${doc.pid} on ${doc.host}, from ${String(doc.claimed_at)})`
      : '';
  } catch {
    return '';
  }
}
