/**
 * The session lease: S3 has no locks and no multi-object conditions, so one writer per session is
 * kept by a lease object (`session_<id>/.skein-lease.json`). A writer takes it at its first write
 * with `If-None-Match: *` (or `If-Match` over a released or dead one), renews it with `If-Match` once
 * half its time is gone, and writes only while it holds it; a second writer finds the lease held and
 * gets `SessionConflictError` before writing anything. Giving it up replaces it (`If-Match`) with a
 * released lease of the same owner, so the object stays: its ETag is the session's write generation.
 * A writer that died on this host (its pid is gone) is taken over at once; one on another host when
 * its lease expires (conditionally, so two takers cannot both win); any at once with
 * `takeover: true` when the caller knows the holder is gone.
 *
 * A writer never goes on from a stale view: `beginView` (one GET, before its session manager reads
 * the session) remembers the lease's ETag and whether another live writer held it. The next take
 * fails, writing nothing, when the view saw a holder (it may write after our reads), and otherwise is
 * a write conditional on that ETag (`If-Match`, or `If-None-Match: *` when there was no lease): every
 * take and every release writes the lease, so any other writer's claim since the view makes it fail.
 * One GET gives the generation and the holder at once; a holder releases after its writes, so a view
 * that saw a released (or dead) lease has all of them.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { processAlive, SessionConflictError } from '@skein/core';
import type { S3ObjectStore } from './object-store.js';

/** What the lease object holds. */
export interface LeaseDoc {
  owner: string;
  pid: number;
  host: string;
  acquired_at: string;
  expires_at: string;
  /** Set when the holder gave the lease up (then `expires_at` is that moment). */
  released_at?: string;
}

/** Lease timing (ms). */
export interface LeaseTiming {
  /**
   * How long a lease lasts without renewal. Default 15,000. A writer renews it before a write once
   * half of it is gone, so every write starts with at least half the lease left (the margin for
   * clock skew and slow requests).
   */
  ttlMs: number;
}

/** Where the lease lives and how to name it in errors. */
export interface LeasePlace {
  sessionId: string;
  key: string;
  url: string;
}

/** What this writer saw of the lease when it loaded the session: its ETag (none: no lease object) and a live holder. */
interface View {
  etag: string | undefined;
  holder?: LeaseDoc | undefined;
}

const RELOAD =
  'Reload it (build the agent, Graph or Swarm again on a new session manager) and retry. Nothing was written.';

/** Lease owners held by live leases of this process (a lease of this pid not among them is left over). */
const heldOwners = new Set<string>();

/** True when the holder is certainly gone: it gave the lease up or it expired, or it ran on this host and its process is dead. */
function holderGone(lease: LeaseDoc, now: number): boolean {
  if (lease.released_at !== undefined || Date.parse(lease.expires_at) <= now) return true;
  if (lease.host !== os.hostname()) return false;
  return lease.pid === process.pid ? !heldOwners.has(lease.owner) : !processAlive(lease.pid);
}

function parseLease(text: string): LeaseDoc {
  try {
    return JSON.parse(text) as LeaseDoc;
  } catch {
    return { owner: '?', pid: 0, host: '?', acquired_at: '', expires_at: new Date(0).toISOString() }; // unreadable: treat as expired
  }
}

export class SessionLease {
  readonly #store: S3ObjectStore;
  readonly #place: LeasePlace;
  readonly #timing: LeaseTiming;
  readonly #takeover: boolean;
  /** The lease this writer holds (a new owner per take): its document and ETag. */
  #doc: LeaseDoc | undefined;
  #etag: string | undefined;
  #expiresAt = 0;
  #held = false;
  #view: View | undefined;
  #pending: Promise<void> | undefined;

  constructor(store: S3ObjectStore, place: LeasePlace, timing: LeaseTiming, takeover: boolean) {
    this.#store = store;
    this.#place = place;
    this.#timing = timing;
    this.#takeover = takeover;
  }

  /** Starts this writer's view of the session (one GET of the lease); a no-op while it holds the lease. */
  async beginView(): Promise<void> {
    if (this.#held) return;
    const got = await this.#store.read(this.#place.key);
    if (!got) return void (this.#view = { etag: undefined });
    const lease = parseLease(got.text);
    const live = !this.#takeover && !holderGone(lease, Date.now());
    this.#view = { etag: got.etag, holder: live ? lease : undefined };
  }

  /** Whether this writer holds the lease now. */
  get held(): boolean {
    return this.#held;
  }

  /** The heartbeat: renews the lease when held and half of it is gone (never takes it). */
  beat(): Promise<void> {
    return this.#held ? this.ensure() : Promise.resolve();
  }

  /** Makes sure this writer holds the lease with time to spare: takes or renews it when needed (one request at most). */
  ensure(): Promise<void> {
    const now = Date.now();
    if (this.#held && now < this.#expiresAt - this.#timing.ttlMs / 2) return Promise.resolve();
    this.#pending ??= this.#refresh(now).finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  async #refresh(now: number): Promise<void> {
    if (this.#held && this.#doc) {
      const doc = { ...this.#doc, expires_at: new Date(now + this.#timing.ttlMs).toISOString() };
      const outcome = await this.#store.replace(this.#place.key, JSON.stringify(doc, null, 2), this.#etag);
      if (outcome === 'replaced') return this.#hold(doc, now);
      this.#drop();
      if (this.#view) this.#view = { etag: this.#etag }; // no longer the lease's version: the next take fails
      throw this.#lost(outcome === 'missing' ? 'its lease was removed' : 'another writer took its lease over');
    }
    const doc: LeaseDoc = {
      owner: randomBytes(8).toString('hex'),
      pid: process.pid,
      host: os.hostname(),
      acquired_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.#timing.ttlMs).toISOString(),
    };
    if (this.#view) return this.#takeFromView(doc, now, this.#view);
    return this.#take(doc, now);
  }

  /** The take of a writer with a view: conditional on the lease being exactly what the view saw. */
  async #takeFromView(doc: LeaseDoc, now: number, view: View): Promise<void> {
    if (view.holder) throw this.#heldError(view.holder, true);
    const body = JSON.stringify(doc, null, 2);
    const taken =
      view.etag === undefined
        ? await this.#store.create(this.#place.key, body)
        : (await this.#store.replace(this.#place.key, body, view.etag)) === 'replaced';
    if (!taken) throw await this.#staleError(now);
    this.#hold(doc, now);
    this.#view = { etag: this.#etag };
  }

  /** The take without a view: any free, expired or dead lease. */
  async #take(doc: LeaseDoc, now: number): Promise<void> {
    const body = JSON.stringify(doc, null, 2);
    if (await this.#store.create(this.#place.key, body)) return this.#hold(doc, now);
    const current = await this.#store.read(this.#place.key);
    if (current === undefined) return this.#take(doc, now); // deleted meanwhile: take it
    const lease = parseLease(current.text);
    if (!holderGone(lease, now) && !this.#takeover) throw this.#heldError(lease, false);
    // Gone (or taken over on purpose): replace exactly the version read, so two takers cannot both win.
    if ((await this.#store.replace(this.#place.key, body, current.etag)) !== 'replaced') {
      throw new SessionConflictError(
        `Another writer took the lease of ${this.#place.url} at the same moment; only one writer may hold a session. Retry later.`,
        { location: this.#place.url },
      );
    }
    this.#hold(doc, now);
  }

  #hold(doc: LeaseDoc, now: number): void {
    this.#held = true;
    this.#doc = doc;
    this.#etag = this.#store.etag(this.#place.key);
    this.#expiresAt = now + this.#timing.ttlMs;
    heldOwners.add(doc.owner);
  }

  #drop(): void {
    this.#held = false;
    if (this.#doc) heldOwners.delete(this.#doc.owner);
  }

  #heldError(lease: LeaseDoc, sinceView: boolean): SessionConflictError {
    const who = `process ${lease.pid} on ${lease.host}, lease until ${lease.expires_at}`;
    const message = sinceView
      ? `${this.#place.url} was held by another writer (${who}) when this writer loaded session ${this.#place.sessionId}, so what this writer loaded may miss that writer's later writes. ` +
        'Reload it (build the agent, Graph or Swarm again on a new session manager) once that writer is done (close() or release() on its session manager gives the lease up), and retry; ' +
        'if that writer is gone, wait until its lease expires or pass takeover: true. Nothing was written.'
      : `${this.#place.url} is held by another writer (${who}); only one writer may hold a session. ` +
        'Close the other writer (close() or release() on its session manager gives the lease up), wait until the lease expires, or pass takeover: true if you know it is gone.';
    return new SessionConflictError(message, { location: this.#place.url });
  }

  /** Why a take from the view failed: the lease changed since (read once more to name the writer). */
  async #staleError(now: number): Promise<SessionConflictError> {
    const current = await this.#store.read(this.#place.key).catch(() => undefined);
    const lease = current && parseLease(current.text);
    const by = !lease
      ? ' (it deleted the session)'
      : ` (process ${lease.pid} on ${lease.host}, from ${lease.acquired_at}${holderGone(lease, now) ? '' : `, holding it until ${lease.expires_at}`})`;
    return new SessionConflictError(
      `Session ${this.#place.sessionId} (${this.#place.url}) was written by another writer${by} after this writer loaded it, so what this writer holds is out of date. ${RELOAD}`,
      { location: this.#place.url },
    );
  }

  #lost(why: string): SessionConflictError {
    return new SessionConflictError(
      `This writer no longer holds ${this.#place.url}: ${why} (it was idle past the lease). Nothing more was written; reopen the session to continue from what is stored.`,
      { location: this.#place.url },
    );
  }

  /**
   * Gives the lease up (when still ours), so the next writer need not wait for it to expire: replaces
   * it with a released lease of the same owner. The view stays this writer's own: its next take
   * fails if another writer took the lease in between.
   */
  async release(): Promise<void> {
    await this.#pending?.catch(() => undefined);
    if (!this.#held || !this.#doc) return;
    this.#drop();
    const now = new Date().toISOString();
    const released: LeaseDoc = { ...this.#doc, expires_at: now, released_at: now };
    const outcome = await this.#store
      .replace(this.#place.key, JSON.stringify(released, null, 2), this.#etag)
      .catch(() => 'failed' as const);
    if (outcome === 'replaced') this.#etag = this.#store.etag(this.#place.key);
    if (this.#view) this.#view = { etag: this.#etag };
  }

  /** After this writer deleted the session (the lease with it): its view is the empty session. */
  emptied(): void {
    this.#drop();
    this.#etag = undefined;
    if (this.#view) this.#view = { etag: undefined };
  }
}
