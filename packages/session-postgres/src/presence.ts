/**
 * A process's presence on one PostgreSQL database: a connection of its own that holds a shared
 * session-level advisory lock named by the process (its host and pid) while the process holds a lease
 * there, and listens for leases given up. The lock ends with the connection, and the connection with
 * the process: PostgreSQL frees it as soon as a killed process's socket closes. So a writer that
 * meets an unexpired lease held on another host (where it cannot see the process) takes the lock's
 * being free as proof that the holder is gone, instead of waiting for the lease to expire; and a
 * writer waiting for a session is woken when its holder gives the lease up (`NOTIFY`), not by polling.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import { leaseHolderGone } from '@skein/core';
import type { Client, Pool } from 'pg';

/** The first key of every presence lock (the second is the process's): "skn". */
const PRESENCE_SPACE = 0x736b6e;
/** The channel leases given up are announced on (payload: the lease table and session id). */
export const RELEASED_CHANNEL = 'skein_lease_released';
/** Owner ids of writers that keep a presence start with this (older writers' do not: for them the lease's expiry decides). */
export const PRESENT_OWNER = 'p';
/** How long a presence stays connected once nothing of this process holds a lease or waits. */
const IDLE_MS = 10_000;

/** Something that runs a query: a pool or a client inside a transaction. */
interface Queryable {
  query<R extends object>(sql: string, params: unknown[]): Promise<{ rows: R[] }>;
}

/** The holder fields of a lease row. */
interface Holder {
  owner: string | null;
  pid: number | null;
  host: string | null;
  expires_at: number | null;
}

/** The second key of the presence lock of process `pid` on `host`. */
function presenceKey(host: string, pid: number): number {
  return createHash('sha256').update(`${host}\0${pid}`).digest().readInt32BE(0);
}

/**
 * True when a lease's holder is certainly gone: the core rules (free, expired, a dead process on this
 * host), or, for a holder on another host that keeps a presence, its presence lock is free. Takes the
 * lock for the caller's transaction when it is free (released when that ends).
 */
export async function pgHolderGone(q: Queryable, holder: Holder, nowMs: number): Promise<boolean> {
  if (leaseHolderGone(holder, nowMs, os.hostname())) return true;
  if (holder.host === os.hostname() || !holder.owner?.startsWith(PRESENT_OWNER)) return false;
  const key = presenceKey(holder.host ?? '', holder.pid ?? 0);
  const { rows } = await q.query<{ free: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS free', [
    PRESENCE_SPACE,
    key,
  ]);
  return rows[0]?.free === true;
}

const presences = new WeakMap<Pool, PgPresence>();

/** This process's presence on the database of one pool (one connection besides the pool's). */
export class PgPresence {
  readonly #pool: Pool;
  #client: Promise<Client> | undefined;
  /** Which connection is current: one that ends after another replaced it (or after `end()`) is not missed. */
  #generation = 0;
  #held = 0;
  readonly #waiters = new Map<string, Set<() => void>>();
  #idle: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;

  private constructor(pool: Pool) {
    this.#pool = pool;
  }

  /** The presence on `pool`'s database. */
  static of(pool: Pool): PgPresence {
    let presence = presences.get(pool);
    if (!presence) {
      presence = new PgPresence(pool);
      presences.set(pool, presence);
    }
    return presence;
  }

  /** Connects and takes the presence lock, if not done yet: call before claiming a lease. */
  async ready(): Promise<void> {
    this.#touch();
    this.#client ??= this.#connect().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    await this.#client;
  }

  /** A lease of this process was claimed (+1) or given up (-1): the presence stays while any is held. */
  count(delta: number): void {
    this.#held = Math.max(0, this.#held + delta);
    this.#touch();
  }

  /**
   * Resolves `true` when `key` is announced (a lease given up), `false` after `ms` or once `signal`
   * aborts. Listens from this call on: call `ready()` first, so that nothing announced after it is missed.
   */
  waitFor(key: string, ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const set = this.#waiters.get(key) ?? new Set();
      this.#waiters.set(key, set);
      const done = (woken: boolean): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
        set.delete(wake);
        if (set.size === 0) this.#waiters.delete(key);
        this.#touch();
        resolve(woken);
      };
      const wake = (): void => done(true);
      const stop = (): void => done(false);
      const timer = setTimeout(stop, ms);
      signal?.addEventListener('abort', stop, { once: true });
      set.add(wake);
    });
  }

  /** Closes the connection (the pool is ending). */
  async end(): Promise<void> {
    if (this.#idle) clearTimeout(this.#idle);
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = undefined;
    const client = this.#client;
    this.#client = undefined;
    this.#generation++;
    await client?.then((c) => c.end()).catch(() => undefined);
  }

  /** Still holding leases: be present again at once, and retry each second while the database is away (other writers may take them over meanwhile; fencing stops this writer then). */
  #rejoin(): void {
    if (this.#held === 0 || this.#retry) return;
    void this.ready().catch(() => {
      this.#retry = setTimeout(() => {
        this.#retry = undefined;
        this.#rejoin();
      }, 1_000);
      this.#retry.unref();
    });
  }

  /** Restarts the idle clock; the connection closes once nothing holds or waits for `IDLE_MS`. */
  #touch(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#held === 0 && this.#waiters.size === 0) void this.end();
    }, IDLE_MS);
    this.#idle.unref();
  }

  async #connect(): Promise<Client> {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ ...this.#pool.options, keepAlive: true });
    const generation = ++this.#generation;
    const lost = (): void => {
      if (generation !== this.#generation) return;
      this.#generation++;
      this.#client = undefined;
      void client.end().catch(() => undefined);
      this.#rejoin();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      if (n.channel !== RELEASED_CHANNEL || n.payload === undefined) return;
      for (const wake of [...(this.#waiters.get(n.payload) ?? [])]) wake();
    });
    await client.connect();
    await client.query('SELECT pg_advisory_lock_shared($1, $2)', [
      PRESENCE_SPACE,
      presenceKey(os.hostname(), process.pid),
    ]);
    await client.query(`LISTEN ${RELEASED_CHANNEL}`);
    // Once set up, the presence must not keep the process alive (it only waits for notifications).
    (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
    return client;
  }
}
