import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import { SessionConflictError } from '@skein/core';
import { writeFileAtomic } from './atomic-write.js';
import { errnoCode, fsError } from './errors.js';
import { isStale, readLock, type LockInfo } from './session-lock.js';
import type { SessionPaths } from './session-paths.js';

/** What a writer saw of a session when it loaded it: the write generation then, and a live holder of the lock then. */
interface View {
  /** The text of `.skein.writer` (`undefined`: no writer has claimed the session yet). */
  generation: string | undefined;
  holder: LockInfo | undefined;
}

const RELOAD =
  'Reload it (build the agent, Graph or Swarm again on a new session manager) and retry. Nothing was written.';

/**
 * A writer never goes on from a stale view. Every claim of a session (its lock taken for a first
 * write) writes a new random generation to `session_<id>/.skein.writer`, while it holds the lock. A
 * writer's view (`begin`, before its session manager reads the session) remembers the generation and
 * whether another live writer held the lock; its next claim fails when the generation changed since
 * or a holder was seen, and otherwise becomes its own generation.
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
  readonly #views = new Map<string, View>();

  constructor(paths: SessionPaths) {
    this.#paths = paths;
  }

  /** Starts this writer's view of `sessionId` (read the generation, then the lock). */
  async begin(sessionId: string): Promise<void> {
    const generation = await this.#generation(sessionId);
    const lock = await readLock(this.#paths.lockFile(sessionId)).catch(() => undefined); // unreadable: the claim reports it
    this.#views.set(sessionId, { generation, holder: lock && !isStale(lock) ? lock : undefined });
  }

  /** Before a claim: fails (before anything is taken) when another writer held the session at the view. */
  checkHolder(sessionId: string): void {
    const holder = this.#views.get(sessionId)?.holder;
    if (!holder) return;
    throw new SessionConflictError(
      `Session ${sessionId} in ${this.#paths.root} was being written by another writer (process ${holder.pid} on ${holder.host}, since ${holder.acquired_at}) when this writer loaded it, so what this writer loaded may miss that writer's later writes. ${RELOAD}`,
      { location: this.#paths.lockFile(sessionId) },
    );
  }

  /**
   * The claim, under the lock: fails when another writer claimed the session since this writer's
   * view; then writes a new generation, which becomes the view (without a view: only writes it).
   */
  async claim(sessionId: string): Promise<void> {
    const file = this.#paths.writerFile(sessionId);
    const view = this.#views.get(sessionId);
    if (view) {
      this.checkHolder(sessionId);
      const now = await this.#generation(sessionId);
      if (now !== view.generation) {
        const by = describeWriter(now);
        throw new SessionConflictError(
          `Session ${sessionId} in ${this.#paths.root} was written by another writer${by} after this writer loaded it, so what this writer holds is out of date. ${RELOAD}`,
          { location: file },
        );
      }
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
    if (view) this.#views.set(sessionId, { generation: text, holder: undefined });
  }

  /** After this writer deleted the session: its view is the empty session. */
  emptied(sessionId: string): void {
    if (this.#views.has(sessionId)) this.#views.set(sessionId, { generation: undefined, holder: undefined });
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

/** ` (process 12 on host-a, at ...)` from a generation's text, when it says; else nothing. */
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
