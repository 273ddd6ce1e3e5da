import { SessionError, SkeinError, errorMessage } from '@skein/core';

interface PgErrorShape {
  code?: unknown;
  message?: unknown;
}

const TRANSIENT_CODES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '53300', // too_many_connections
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

const TRANSIENT_MESSAGES = [
  'Connection terminated',
  'connection error',
  'not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed',
  'terminating connection',
];

/** The SQLSTATE or Node error code of an error from `pg`, if any. */
export function pgCode(error: unknown): string | undefined {
  const code = (error as PgErrorShape | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for faults of the outside world that a retry can get past: a lost connection, a restarting server, a serialization failure, a deadlock. */
export function isTransient(error: unknown): boolean {
  if (error instanceof SkeinError) return false;
  const code = pgCode(error);
  if (code !== undefined && TRANSIENT_CODES.has(code)) return true;
  const message = (error as PgErrorShape | null)?.message;
  return typeof message === 'string' && TRANSIENT_MESSAGES.some((m) => message.includes(m));
}

/** Turns a `pg` error into a `SessionError` naming the store and what to do; skein errors pass through. */
export function toSessionError(error: unknown, store: string, doing: string, attempts = 1): SkeinError {
  if (error instanceof SkeinError) return error;
  const code = pgCode(error) ?? '';
  const detail = errorMessage(error);
  const options = { location: store, cause: error };
  const tried = attempts > 1 ? ` (${attempts} attempts)` : '';
  if (code === '28P01' || code === '28000')
    return new SessionError(
      `${store} refused the login (${code}: ${detail}) while ${doing}; check the user and password of the connection string.`,
      options,
    );
  if (code === '3D000')
    return new SessionError(
      `${store}: the database does not exist (${detail}); create it (createdb <name>) or fix the connection string.`,
      options,
    );
  if (code === 'ENOTFOUND')
    return new SessionError(
      `${store}: the host is not known (${detail}); fix the host of the connection string.`,
      options,
    );
  if (code === '42501')
    return new SessionError(
      `${store}: permission denied (${detail}) while ${doing}; the user needs CREATE on the schema (first use) and SELECT, INSERT, UPDATE, DELETE on the skein_* tables.`,
      options,
    );
  if (isTransient(error))
    return new SessionError(
      `${store} did not answer${tried} while ${doing}: ${code ? `${code}: ` : ''}${detail}. Check that the server is up and reachable; retry once it is (a write that was cut is either wholly stored or not at all).`,
      options,
    );
  return new SessionError(`${store} failed while ${doing}: ${code ? `${code}: ` : ''}${detail}`, options);
}
