import {
  ConfigurationError,
  SessionConflictError,
  nowIso,
  type SessionManager,
  type SessionRepository,
} from '@skein/core';

/**
 * The repository behind a session manager. Every skein store's manager (`FileSessionManager`,
 * `S3SessionManager`, the SQL ones) is a `RepositorySessionManager` and exposes it; the server reads
 * conversations through it without writing (a read must never create a session).
 */
export function repositoryOf(manager: SessionManager): SessionRepository {
  const repo = (manager as { repository?: unknown }).repository;
  if (
    typeof repo === 'object' &&
    repo !== null &&
    typeof (repo as SessionRepository).readMultiAgent === 'function' &&
    typeof (repo as SessionRepository).createSession === 'function'
  ) {
    return repo as SessionRepository;
  }
  throw new ConfigurationError(
    "The session manager from `sessions(conversationId)` has no `repository`; return a skein store's manager (FileSessionManager, S3SessionManager, RepositorySessionManager...).",
  );
}

/**
 * Creates the session when it is not there yet (a session manager would too, on its first write);
 * through the manager's own `ensureSession` when it has one, so the manager does not read it again.
 */
export async function ensureSession(
  repo: SessionRepository,
  sessionId: string,
  type: 'AGENT' | 'MULTI_AGENT',
  manager?: SessionManager,
): Promise<void> {
  const own = (manager as { ensureSession?: (t: 'AGENT' | 'MULTI_AGENT') => Promise<unknown> } | undefined)
    ?.ensureSession;
  if (own && manager) {
    await own.call(manager, type);
    return;
  }
  if (await repo.readSession(sessionId)) return;
  const now = nowIso();
  try {
    await repo.createSession({ session_id: sessionId, session_type: type, created_at: now, updated_at: now });
  } catch (error) {
    // Created by another writer in between: fine, it exists.
    if (!(SessionConflictError.is(error) && (await repo.readSession(sessionId)))) throw error;
  }
}

/**
 * Creates the session (multi-agent) and the server's own record `id` in it (empty state) when they are
 * not there yet: the home of a principal's index or its eval runs. A record another writer created in
 * between is fine.
 */
export async function ensureRecord(repo: SessionRepository, sessionId: string, id: string): Promise<void> {
  await ensureSession(repo, sessionId, 'MULTI_AGENT');
  if (await repo.readMultiAgent(sessionId, id)) return;
  const now = nowIso();
  await repo
    .createMultiAgent(sessionId, { id, type: id, state: {}, created_at: now, updated_at: now })
    .catch((error: unknown) => {
      if (!SessionConflictError.is(error)) throw error;
    });
}

/** Gives up the manager's claim on its session (its lock or lease), when the store has one. */
export async function closeQuietly(manager: SessionManager): Promise<void> {
  try {
    await manager.close?.();
  } catch {
    // Releasing is best effort: a lock left behind is recovered by the next writer.
  }
}
