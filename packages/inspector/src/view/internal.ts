/**
 * What a server keeps for itself beside users' runs, hidden by default (`--internal` shows it): ids
 * that begin with `skein-`. `@skein/server` names its own sessions so (one index per principal,
 * `skein-index-<hash>`) and keeps one record of its own inside each conversation's session (the
 * orchestrator record `skein-server`: who owns the conversation, its turns).
 */
const INTERNAL = /^skein-/;

/** True for a session that is a server's own bookkeeping, not a user's run. */
export function isInternalSession(sessionId: string): boolean {
  return INTERNAL.test(sessionId);
}

/** True for an orchestrator record that is a server's own (`skein-server`), not a run. */
export function isInternalRecord(multiAgentId: string): boolean {
  return INTERNAL.test(multiAgentId);
}
