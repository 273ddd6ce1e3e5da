/**
 * The session lease: S3 has no locks and no multi-object conditions, so one writer per session is
 * kept by a lease object (`session_<id>/.skein-lease.json`), by core's rules and messages
 * (`LeaseBook`). A writer takes it at its first write with `If-None-Match: *` (or `If-Match` over a
 * released or dead one), renews it with `If-Match` once half its time is gone (a heartbeat does while
 * the writer is idle), and writes only while it holds it; a second writer finds the lease held and
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
import {
  describeLeaseHolder,
  LeaseBook,
  LeaseHeartbeat,
  leaseHolderGone,
  leaseOwnerClosed,
  leaseOwnerOpened,
  type LeaseHolder,
  WAIT_OR_TAKE_OVER,
} from '@skein/core';
import type { S3Keys } from './keys.js';
import type { S3ObjectStore } from './object-store.js';

/** What the lease object holds. */
interface LeaseDoc {
  owner: string;
  pid: number;
  host: string;
  acquired_at: string;
  expires_at: string;
  /** Set when the holder gave the lease up (then `expires_at` is that moment). */
  released_at?: string;
}

/** The lease this writer holds on one session (a new owner per take): its document, ETag and expiry. */
interface Held {
  doc: LeaseDoc;
  etag: string | undefined;
  expiresAt: number;
}

function parseLease(text: string): LeaseDoc {
  try {
    return JSON.parse(text) as LeaseDoc;
  } catch {
    return { owner: '?', pid: 0, host: '?', acquired_at: '', expires_at: new Date(0).toISOString() }; // unreadable: treat as expired
  }
}

/** A lease document as core's rules read it. */
function holderOf(lease: LeaseDoc): LeaseHolder {
  const released = lease.released_at !== undefined;
  return { owner: lease.owner, pid: lease.pid, host: lease.host, expires_at: Date.parse(lease.expires_at), released };
}

/** True when the holder is certainly gone: it gave the lease up or it expired, or it ran on this host and its process is dead. */
const holderGone = (lease: LeaseDoc, now: number): boolean => leaseHolderGone(holderOf(lease), now, os.hostname());

/** This writer's S3 leases, one per session it wrote to. */
export class S3Lease {
  readonly #store: S3ObjectStore;
  readonly #keys: S3Keys;
  readonly #url: (key: string) => string;
  readonly #ttlMs: number;
  readonly #book: LeaseBook<string>;
  readonly #held = new Map<string, Held>();
  /** The last ETag this writer wrote of each session's lease (also after it gave the lease up). */
  readonly #etags = new Map<string, string | undefined>();
  readonly #pending = new Map<string, Promise<void>>();
  readonly #heartbeat: LeaseHeartbeat;

  constructor(store: S3ObjectStore, keys: S3Keys, url: (key: string) => string, ttlMs: number, takeover: boolean) {
    this.#store = store;
    this.#keys = keys;
    this.#url = url;
    this.#ttlMs = ttlMs;
    this.#book = new LeaseBook({
      session: (sessionId) => `Session ${sessionId} (${this.#leaseUrl(sessionId)})`,
      lease: (sessionId) => this.#leaseUrl(sessionId),
      location: (sessionId) => this.#leaseUrl(sessionId),
      whenGone: WAIT_OR_TAKE_OVER,
      takeover,
    });
    this.#heartbeat = new LeaseHeartbeat(
      ttlMs,
      async () => void (await Promise.allSettled([...this.#held.keys()].map((id) => this.ensure(id)))),
      () => this.#held.size > 0,
    );
  }

  #leaseUrl(sessionId: string): string {
    return this.#url(this.#keys.lease(sessionId));
  }

  /** Starts this writer's view of the session (one GET of the lease); a no-op while it holds the lease. */
  async beginView(sessionId: string): Promise<void> {
    if (this.#held.has(sessionId)) return;
    const got = await this.#store.read(this.#keys.lease(sessionId));
    if (!got) return this.#book.beginView(sessionId, { generation: undefined, heldBy: undefined });
    const lease = parseLease(got.text);
    const live = !this.#book.takeover && !holderGone(lease, Date.now());
    this.#book.beginView(sessionId, {
      generation: got.etag,
      heldBy: live ? describeLeaseHolder(holderOf(lease)) : undefined,
    });
  }

  /** Makes sure this writer holds the session's lease with time to spare: takes or renews it when needed (one request at most). */
  async ensure(sessionId: string): Promise<void> {
    const now = Date.now();
    const held = this.#held.get(sessionId);
    if (held && now < held.expiresAt - this.#ttlMs / 2) return;
    let pending = this.#pending.get(sessionId);
    if (!pending) {
      pending = this.#refresh(sessionId, now).finally(() => this.#pending.delete(sessionId));
      this.#pending.set(sessionId, pending);
    }
    await pending;
    this.#heartbeat.poke();
  }

  async #refresh(sessionId: string, now: number): Promise<void> {
    const key = this.#keys.lease(sessionId);
    const held = this.#held.get(sessionId);
    if (held) {
      const doc = { ...held.doc, expires_at: new Date(now + this.#ttlMs).toISOString() };
      const outcome = await this.#store.replace(key, JSON.stringify(doc, null, 2), held.etag);
      if (outcome === 'replaced') return this.#hold(sessionId, doc, now);
      this.#drop(sessionId);
      this.#viewIs(sessionId, held.etag); // no longer the lease's version: the next take fails
      throw this.#book.lostError(
        sessionId,
        outcome === 'missing' ? 'its lease was removed' : 'another writer took its lease over',
      );
    }
    const doc: LeaseDoc = {
      owner: randomBytes(8).toString('hex'),
      pid: process.pid,
      host: os.hostname(),
      acquired_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.#ttlMs).toISOString(),
    };
    const view = this.#book.view(sessionId);
    if (view) return this.#takeFromView(sessionId, doc, now, view.generation);
    return this.#take(sessionId, doc, now);
  }

  /** The take of a writer with a view: conditional on the lease being exactly what the view saw. */
  async #takeFromView(sessionId: string, doc: LeaseDoc, now: number, etag: string | undefined): Promise<void> {
    this.#book.checkViewHolder(sessionId);
    const key = this.#keys.lease(sessionId);
    const body = JSON.stringify(doc, null, 2);
    const taken =
      etag === undefined
        ? await this.#store.create(key, body)
        : (await this.#store.replace(key, body, etag)) === 'replaced';
    if (!taken) throw await this.#staleError(sessionId, now);
    this.#hold(sessionId, doc, now);
    this.#viewIs(sessionId, this.#held.get(sessionId)?.etag);
  }

  /** The take without a view: any free, expired or dead lease. */
  async #take(sessionId: string, doc: LeaseDoc, now: number): Promise<void> {
    const key = this.#keys.lease(sessionId);
    const body = JSON.stringify(doc, null, 2);
    if (await this.#store.create(key, body)) return this.#hold(sessionId, doc, now);
    const current = await this.#store.read(key);
    if (current === undefined) return this.#take(sessionId, doc, now); // deleted meanwhile: take it
    const lease = parseLease(current.text);
    this.#book.checkHolder(sessionId, holderGone(lease, now) ? undefined : describeLeaseHolder(holderOf(lease)));
    // Gone (or taken over on purpose): replace exactly the version read, so two takers cannot both win.
    if ((await this.#store.replace(key, body, current.etag)) !== 'replaced') throw this.#book.raceError(sessionId);
    this.#hold(sessionId, doc, now);
  }

  #hold(sessionId: string, doc: LeaseDoc, now: number): void {
    const etag = this.#store.etag(this.#keys.lease(sessionId));
    this.#held.set(sessionId, { doc, etag, expiresAt: now + this.#ttlMs });
    this.#etags.set(sessionId, etag);
    leaseOwnerOpened(doc.owner);
  }

  #drop(sessionId: string): void {
    const held = this.#held.get(sessionId);
    if (!held) return;
    this.#held.delete(sessionId);
    leaseOwnerClosed(held.doc.owner);
  }

  /** A writer with a view: its view is now `etag` (its own write, or one it knows is no longer current). */
  #viewIs(sessionId: string, etag: string | undefined): void {
    if (this.#book.view(sessionId)) this.#book.beginView(sessionId, { generation: etag, heldBy: undefined });
  }

  /** Why a take from the view failed: the lease changed since (read once more to name the writer). */
  async #staleError(sessionId: string, now: number): Promise<Error> {
    const current = await this.#store.read(this.#keys.lease(sessionId)).catch(() => undefined);
    const lease = current && parseLease(current.text);
    const by = !lease
      ? ' (it deleted the session)'
      : ` (process ${lease.pid} on ${lease.host}, from ${lease.acquired_at}${holderGone(lease, now) ? '' : `, holding it until ${lease.expires_at}`})`;
    return this.#book.staleError(sessionId, by);
  }

  /**
   * Gives the lease up (when still ours), so the next writer need not wait for it to expire: replaces
   * it with a released lease of the same owner. The view stays this writer's own: its next take
   * fails if another writer took the lease in between.
   */
  async release(sessionId: string): Promise<void> {
    await this.#pending.get(sessionId)?.catch(() => undefined);
    const held = this.#held.get(sessionId);
    if (!held) return;
    this.#drop(sessionId);
    const key = this.#keys.lease(sessionId);
    const now = new Date().toISOString();
    const released: LeaseDoc = { ...held.doc, expires_at: now, released_at: now };
    const outcome = await this.#store
      .replace(key, JSON.stringify(released, null, 2), held.etag)
      .catch(() => 'failed' as const);
    if (outcome === 'replaced') this.#etags.set(sessionId, this.#store.etag(key));
    this.#viewIs(sessionId, this.#etags.get(sessionId));
  }

  /** After this writer deleted the session (the lease with it): its view is the empty session. */
  emptied(sessionId: string): void {
    this.#drop(sessionId);
    this.#etags.set(sessionId, undefined);
    this.#viewIs(sessionId, undefined);
  }

  /** Gives up every lease held and stops the heartbeat. */
  async close(): Promise<void> {
    this.#heartbeat.stop();
    await Promise.all([...this.#held.keys()].map((sessionId) => this.release(sessionId)));
  }
}
