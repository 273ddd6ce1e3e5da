/**
 * The session lease: S3 has no locks and no multi-object conditions, so one writer per session is
 * kept by a lease object (`session_<id>/.skein-lease.json`). A writer takes it at its first write
 * with `If-None-Match: *`, renews it with `If-Match` once half its time is gone, and writes only
 * while it holds it; a second writer finds the lease held and gets `SessionConflictError` before
 * writing anything. A writer that died on this host (its pid is gone) is taken over at once; one on
 * another host when its lease expires (conditionally, so two takers cannot both win); any at once
 * with `takeover: true` when the caller knows the holder is gone.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { SessionConflictError } from '@skein/core';
import type { S3ObjectStore } from './s3-object-store.js';

/** What the lease object holds. */
export interface LeaseDoc {
  owner: string;
  pid: number;
  host: string;
  acquired_at: string;
  expires_at: string;
}

/** Lease timing (ms). */
export interface LeaseTiming {
  /**
   * How long a lease lasts without renewal. Default 60,000. A writer renews it before a write once
   * half of it is gone, so every write starts with at least half the lease left (the margin for
   * clock skew and slow requests).
   */
  ttlMs: number;
}

/** Lease owners held by live leases of this process (a lease of this pid not among them is left over). */
const heldOwners = new Set<string>();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the holder is certainly gone: its lease expired, or it ran on this host and its process is dead. */
function holderGone(lease: LeaseDoc, now: number): boolean {
  if (Date.parse(lease.expires_at) <= now) return true;
  if (lease.host !== os.hostname()) return false;
  return lease.pid === process.pid ? !heldOwners.has(lease.owner) : !pidAlive(lease.pid);
}

export class SessionLease {
  readonly #store: S3ObjectStore;
  readonly #key: string;
  readonly #url: string;
  readonly #timing: LeaseTiming;
  readonly #takeover: boolean;
  readonly #owner = randomBytes(8).toString('hex');
  #expiresAt = 0;
  #held = false;
  #pending: Promise<void> | undefined;

  constructor(store: S3ObjectStore, key: string, url: string, timing: LeaseTiming, takeover: boolean) {
    this.#store = store;
    this.#key = key;
    this.#url = url;
    this.#timing = timing;
    this.#takeover = takeover;
  }

  /** Makes sure this writer holds the lease with time to spare: takes or renews it when needed (one request at most). */
  ensure(): Promise<void> {
    const now = Date.now();
    if (this.#held && now < this.#expiresAt - this.#timing.ttlMs / 2) return Promise.resolve();
    this.#pending ??= this.#refresh(now).finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  async #refresh(now: number): Promise<void> {
    const doc: LeaseDoc = {
      owner: this.#owner,
      pid: process.pid,
      host: os.hostname(),
      acquired_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.#timing.ttlMs).toISOString(),
    };
    const body = JSON.stringify(doc, null, 2);
    if (this.#held) {
      const outcome = await this.#store.replace(this.#key, body);
      if (outcome === 'replaced') return void (this.#expiresAt = now + this.#timing.ttlMs);
      this.#held = false;
      heldOwners.delete(this.#owner);
      throw this.#lost(outcome === 'missing' ? 'its lease was removed' : 'another writer took its lease over');
    }
    if (await this.#store.create(this.#key, body)) return this.#hold(now);
    const current = await this.#read();
    if (current === undefined) return this.#refresh(now); // released meanwhile: take it
    if (!holderGone(current, now) && !this.#takeover) {
      throw new SessionConflictError(
        `${this.#url} is held by another writer (process ${current.pid} on ${current.host}, lease until ${current.expires_at}); only one writer may hold a session. ` +
          'Close the other writer (close() on its session manager or repository gives the lease up), wait until the lease expires, or pass takeover: true if you know it is gone.',
        { location: this.#url },
      );
    }
    // Gone (or taken over on purpose): replace exactly the version read, so two takers cannot both win.
    const outcome = await this.#store.replace(this.#key, body);
    if (outcome !== 'replaced') {
      throw new SessionConflictError(
        `Another writer took the lease of ${this.#url} at the same moment; only one writer may hold a session. Retry later.`,
        { location: this.#url },
      );
    }
    this.#hold(now);
  }

  #hold(now: number): void {
    this.#held = true;
    this.#expiresAt = now + this.#timing.ttlMs;
    heldOwners.add(this.#owner);
  }

  async #read(): Promise<LeaseDoc | undefined> {
    const text = await this.#store.get(this.#key);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as LeaseDoc;
    } catch {
      return { owner: '?', pid: 0, host: '?', acquired_at: '', expires_at: new Date(0).toISOString() }; // unreadable: treat as expired
    }
  }

  #lost(why: string): SessionConflictError {
    return new SessionConflictError(
      `This writer no longer holds ${this.#url}: ${why} (it was idle past the lease). Nothing more was written; reopen the session to continue from what is stored.`,
      {
        location: this.#url,
      },
    );
  }

  /** Gives the lease up (when still ours), so the next writer need not wait for it to expire. */
  async release(): Promise<void> {
    if (!this.#held) return;
    this.#held = false;
    heldOwners.delete(this.#owner);
    const current = await this.#read().catch(() => undefined);
    if (current?.owner === this.#owner) await this.#store.deleteKeys([this.#key]).catch(() => undefined);
  }
}
