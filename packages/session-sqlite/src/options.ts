import path from 'node:path';
import { ConfigurationError } from '@skein/core';

/** Options of {@link SqliteSessionRepository}. */
export interface SqliteSessionRepositoryOptions {
  /** The database file (created with the session tables on first use), e.g. `./desk.db`. */
  path: string;
  /** `FULL` (default): an acknowledged step survives a power loss. `NORMAL`: it survives a process crash; a power loss may lose the last steps (never half of one). */
  synchronous?: 'FULL' | 'NORMAL';
  /** How long a write waits for another connection's write lock before it fails; default 5,000 ms. */
  busyTimeoutMs?: number;
  /** How long a writer's lease on a session lasts without a renewal (a heartbeat renews it while the writer lives); default 15,000 ms. */
  leaseTtlMs?: number;
  /** Take a session over even when another live writer holds it (you know it is gone); default false. */
  takeover?: boolean;
  /** Commit the writes of all sessions that are ready in the same turn of the event loop in one transaction; default true. */
  groupCommit?: boolean;
  /** Open for reading only (the file must exist and be a skein session database); default false. */
  readonly?: boolean;
}

export interface ResolvedSqliteOptions {
  path: string;
  store: string;
  synchronous: 'FULL' | 'NORMAL';
  busyTimeoutMs: number;
  leaseTtlMs: number;
  takeover: boolean;
  groupCommit: boolean;
  readonly: boolean;
}

const KNOWN = new Set([
  'path',
  'synchronous',
  'busyTimeoutMs',
  'leaseTtlMs',
  'takeover',
  'groupCommit',
  'readonly',
  'sessionId',
]);

function positive(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new ConfigurationError(`${name} must be a positive number of milliseconds (got ${JSON.stringify(value)}).`);
  return value;
}

function flag(value: unknown, name: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean')
    throw new ConfigurationError(`${name} must be true or false (got ${JSON.stringify(value)}).`);
  return value;
}

/** Checks the options (a `ConfigurationError` naming the bad one) and fills in the defaults. */
export function resolveSqliteOptions(options: SqliteSessionRepositoryOptions, who: string): ResolvedSqliteOptions {
  if (!options || typeof options !== 'object')
    throw new ConfigurationError(`${who} needs options: { path: './sessions.db' }.`);
  const unknown = Object.keys(options).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0)
    throw new ConfigurationError(
      `${who} does not know the option ${unknown.join(', ')}; see its README for the options.`,
    );
  if (typeof options.path !== 'string' || options.path.trim() === '')
    throw new ConfigurationError(
      `${who} needs path, the database file (e.g. './sessions.db'); got ${JSON.stringify(options.path)}.`,
    );
  const synchronous = options.synchronous ?? 'FULL';
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL')
    throw new ConfigurationError(
      `synchronous must be 'FULL' or 'NORMAL' (got ${JSON.stringify(options.synchronous)}).`,
    );
  const file = options.path === ':memory:' ? ':memory:' : path.resolve(options.path);
  return {
    path: file,
    store: `sqlite:${file}`,
    synchronous,
    busyTimeoutMs: positive(options.busyTimeoutMs, 'busyTimeoutMs', 5_000),
    leaseTtlMs: positive(options.leaseTtlMs, 'leaseTtlMs', 15_000),
    takeover: flag(options.takeover, 'takeover'),
    groupCommit: options.groupCommit === undefined ? true : flag(options.groupCommit, 'groupCommit'),
    readonly: flag(options.readonly, 'readonly'),
  };
}
