/**
 * The studio's store: `sqlite:<file>` (default `sqlite:.skein/studio.db`, one database for every
 * conversation) or `file:<dir>` / `<dir>` (a directory of session files), as the inspector's
 * commands name stores; or your own `(sessionId) => SessionManager`.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { SessionManager } from '@skein/core';
import { studioError } from './studio-errors.js';

/** Where sessions go: a store spec, or a session manager per session id. */
export type StudioStore = string | ((sessionId: string) => SessionManager);

/** The default store, relative to the working directory. */
export const DEFAULT_STORE = 'sqlite:.skein/studio.db';

/** The session managers of `store`, where it is (for the line the studio prints), and its spec for the inspector (none for a function). */
export async function openSessions(
  store: StudioStore,
  cwd: string,
): Promise<{ sessions: (sessionId: string) => SessionManager; where: string; inspect?: string }> {
  if (typeof store === 'function') return { sessions: store, where: 'your sessions function' };
  if (/^(s3|postgres(ql)?):/.test(store))
    studioError(
      `--store ${store}: the studio opens sqlite:<file> or file:<dir>; for S3 or PostgreSQL pass your own store function to startStudio.`,
    );
  const at = (p: string): string => (isAbsolute(p) ? p : resolve(cwd, p));
  if (store.startsWith('sqlite:')) {
    const path = at(
      store.slice('sqlite:'.length) || studioError('--store sqlite: needs a file: sqlite:.skein/studio.db'),
    );
    await mkdir(dirname(path), { recursive: true });
    const { SqliteSessionManager } = await import('@skein/session-sqlite');
    return {
      sessions: (sessionId) => new SqliteSessionManager({ sessionId, path }),
      where: path,
      inspect: `sqlite:${path}`,
    };
  }
  const dir = at(store.startsWith('file:') ? store.slice('file:'.length) : store);
  if (dir === '') studioError('--store file: needs a directory');
  await mkdir(dir, { recursive: true });
  const { FileSessionManager } = await import('@skein/session-file');
  return {
    sessions: (sessionId) => new FileSessionManager({ sessionId, storageDir: dir }),
    where: dir,
    inspect: `file:${dir}`,
  };
}
