import { ConfigurationError } from '@skein/core';
import type { Pool } from 'pg';

/** Tuning shared by both ways of connecting. */
interface PostgresCommonOptions {
  /** The schema holding the skein_* tables (created on first use); default `public`. */
  schema?: string;
  /** How long a writer's lease on a session lasts without a write; default 60,000 ms. */
  leaseTtlMs?: number;
  /** Take a session over even when another live writer holds it (you know it is gone); default false. */
  takeover?: boolean;
  /** Retries of transient faults (a lost connection, a restarting server, 40001, 40P01): attempts in all (default 6), waiting 100 ms doubling to 2 s. */
  retry?: { attempts?: number; initialDelayMs?: number; maxDelayMs?: number };
}

/** Options of {@link PostgresSessionRepository}: a connection string (the repository makes a pool) or your pool. */
export type PostgresSessionRepositoryOptions = PostgresCommonOptions &
  (
    | {
        /** `postgres://user:password@host:5432/database`. */
        connectionString: string;
        pool?: undefined;
        /** Connections of the pool the repository makes; default 10. */
        poolSize?: number;
      }
    | {
        /** A `pg.Pool` you made (you end it; give it an 'error' listener, as pg asks). */
        pool: Pool;
        connectionString?: undefined;
        poolSize?: undefined;
      }
  );

export interface ResolvedPostgresOptions {
  connectionString: string | undefined;
  pool: Pool | undefined;
  poolSize: number;
  schema: string;
  store: string;
  leaseTtlMs: number;
  takeover: boolean;
  retry: { attempts: number; initialDelayMs: number; maxDelayMs: number };
}

const KNOWN = new Set([
  'connectionString',
  'pool',
  'poolSize',
  'schema',
  'leaseTtlMs',
  'takeover',
  'retry',
  'sessionId',
]);

function positive(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new ConfigurationError(`${name} must be a positive number (got ${JSON.stringify(value)}).`);
  return value;
}

/** `postgres://user@host:port/database` without the password (how errors name the store). */
function describe(connectionString: string | undefined, pool: Pool | undefined, schema: string): string {
  const suffix = schema === 'public' ? '' : ` (schema ${schema})`;
  const o = (
    pool as
      | { options?: { host?: string; port?: number; database?: string; user?: string; connectionString?: string } }
      | undefined
  )?.options;
  if (connectionString === undefined && o?.connectionString !== undefined)
    return describe(o.connectionString, undefined, schema);
  if (connectionString === undefined) {
    return `postgres://${o?.user ?? ''}@${o?.host ?? 'localhost'}:${o?.port ?? 5432}/${o?.database ?? ''}${suffix}`;
  }
  try {
    const url = new URL(connectionString);
    url.password = '';
    return `${url.toString()}${suffix}`;
  } catch {
    return `PostgreSQL (${connectionString.replace(/:[^:@/]*@/, ':***@')})${suffix}`;
  }
}

/** Checks the options (a `ConfigurationError` naming the bad one) and fills in the defaults. */
export function resolvePostgresOptions(
  options: PostgresSessionRepositoryOptions,
  who: string,
): ResolvedPostgresOptions {
  if (!options || typeof options !== 'object')
    throw new ConfigurationError(`${who} needs options: { connectionString: 'postgres://...' } or { pool }.`);
  const unknown = Object.keys(options).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0)
    throw new ConfigurationError(
      `${who} does not know the option ${unknown.join(', ')}; see its README for the options.`,
    );
  const { connectionString, pool } = options;
  if ((connectionString === undefined) === (pool === undefined))
    throw new ConfigurationError(
      `${who} needs exactly one of connectionString ('postgres://user:password@host:5432/db') and pool.`,
    );
  if (
    connectionString !== undefined &&
    (typeof connectionString !== 'string' || !/^postgres(ql)?:\/\//.test(connectionString))
  )
    throw new ConfigurationError(
      `connectionString must be a postgres:// URL (got ${JSON.stringify(String(connectionString).slice(0, 80))}).`,
    );
  if (pool !== undefined && (typeof pool !== 'object' || pool === null || typeof pool.connect !== 'function'))
    throw new ConfigurationError('pool must be a pg.Pool.');
  const schema = options.schema ?? 'public';
  if (typeof schema !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema))
    throw new ConfigurationError(
      `schema must be an SQL identifier of letters, digits and _ (got ${JSON.stringify(schema)}).`,
    );
  const retry = options.retry ?? {};
  return {
    connectionString,
    pool,
    poolSize: positive(options.poolSize, 'poolSize', 10),
    schema,
    store: describe(connectionString, pool, schema),
    leaseTtlMs: positive(options.leaseTtlMs, 'leaseTtlMs', 60_000),
    takeover: options.takeover === true,
    retry: {
      attempts: Math.floor(positive(retry.attempts, 'retry.attempts', 6)),
      initialDelayMs: positive(retry.initialDelayMs, 'retry.initialDelayMs', 100),
      maxDelayMs: positive(retry.maxDelayMs, 'retry.maxDelayMs', 2_000),
    },
  };
}
