/**
 * One `pg.Pool` per connection string and size in a process, shared by every repository (and session
 * manager) given that connection string: a server whose `sessions` factory builds a manager per
 * request keeps one pool instead of opening one per request. A pool ends once its last user closed and
 * none came back for `LINGER_MS` (idle connections never keep the process alive). And a warning,
 * once per process, when many pools of your own reach one database (a pool made per request).
 */
import type { Pool } from 'pg';
import { PgPresence } from './presence.js';

/** How long a pool nobody uses stays open, for the next request's manager. */
const LINGER_MS = 5_000;
/** Pools of one database passed within `WINDOW_MS` that make the warning. */
const WARN_AT = 5;
const WINDOW_MS = 60_000;

interface Shared {
  pool: Promise<Pool>;
  users: number;
  timer: NodeJS.Timeout | undefined;
}

const shared = new Map<string, Shared>();

/** Takes a use of the shared pool of `connectionString` with `max` connections (made at first use); give it back with `releaseSharedPool`. */
export function acquireSharedPool(connectionString: string, max: number): Promise<Pool> {
  const key = `${max}\0${connectionString}`;
  let entry = shared.get(key);
  if (!entry) {
    const pool = (async () => {
      const pg = (await import('pg')).default;
      const made = new pg.Pool({ connectionString, max, allowExitOnIdle: true });
      made.on('error', () => undefined); // an idle connection the server dropped: the next query reconnects
      return made;
    })();
    entry = { pool, users: 0, timer: undefined };
    shared.set(key, entry);
  }
  if (entry.timer) clearTimeout(entry.timer);
  entry.timer = undefined;
  entry.users++;
  return entry.pool;
}

/** Gives back a use of the pool `acquireSharedPool` gave; the last one ends it after a while. */
export function releaseSharedPool(connectionString: string, max: number): void {
  const key = `${max}\0${connectionString}`;
  const entry = shared.get(key);
  if (!entry || --entry.users > 0) return;
  entry.timer = setTimeout(() => {
    if (shared.get(key) !== entry || entry.users > 0) return;
    shared.delete(key);
    void entry.pool.then(async (pool) => {
      await PgPresence.of(pool).end();
      await pool.end();
    });
  }, LINGER_MS);
  entry.timer.unref();
}

const seen = new WeakSet<Pool>();
const recent = new Map<string, number[]>();
let warned = false;

/** Notes a pool of the caller's given to a repository of `store`; warns once when they come one per request. */
export function notePassedPool(pool: Pool, store: string): void {
  if (warned || seen.has(pool)) return;
  seen.add(pool);
  const now = Date.now();
  const times = (recent.get(store) ?? []).filter((t) => now - t < WINDOW_MS);
  times.push(now);
  recent.set(store, times);
  if (times.length < WARN_AT) return;
  warned = true;
  process.emitWarning(
    `${times.length} pg pools for ${store} were given to session managers within a minute: a pool per request opens connections per request and halves throughput. Make one pool and pass it to every manager (new PostgresSessionManager({ sessionId, pool })), or pass connectionString: managers with the same one share a pool.`,
    { code: 'SKEIN_PG_POOL_PER_REQUEST' },
  );
}
