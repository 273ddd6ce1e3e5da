import { SessionError, SkeinError, errorMessage } from '@skein/core';

/** The SQLite result code of a better-sqlite3 error (`SQLITE_BUSY`, ...), if it is one. */
function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * Turns a better-sqlite3 error into a `SessionError` naming the store and what to do; skein errors
 * (a conflict, a missing item) pass through unchanged.
 */
export function toSessionError(error: unknown, store: string, doing: string, busyTimeoutMs: number): SkeinError {
  if (error instanceof SkeinError) return error;
  const code = sqliteCode(error) ?? '';
  const detail = errorMessage(error);
  const options = { location: store, cause: error };
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
    return new SessionError(
      `${store} is not an SQLite database skein can read (${code}: ${detail}) while ${doing}; give the session store another path (a new file is created), or restore this one from a backup. Nothing was written.`,
      options,
    );
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new SessionError(
      `${store} is locked by another connection (${code}: still locked after ${busyTimeoutMs} ms) while ${doing}; another process holds a long write transaction or an exclusive lock on it. Close that process's connection, or raise busyTimeoutMs. Nothing was written.`,
      options,
    );
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM'))
    return new SessionError(
      `Cannot open ${store} for ${doing} (${code}: ${detail}); check that its directory exists and is writable by this process.`,
      options,
    );
  if (code === 'SQLITE_FULL')
    return new SessionError(
      `${store}: the disk is full (${code}) while ${doing}; free space. Nothing was written.`,
      options,
    );
  return new SessionError(`${store} failed while ${doing}: ${code ? `${code}: ` : ''}${detail}`, options);
}
