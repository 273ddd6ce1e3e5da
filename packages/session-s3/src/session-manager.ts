import { sessionOptions, StoreSessionManager } from '@skein/core';
import type { S3SessionRepositoryOptions } from './options.js';
import { S3SessionRepository } from './session-repository.js';

/** Options of {@link S3SessionManager}: the session id plus where the session lives in S3. */
export interface S3SessionManagerOptions extends S3SessionRepositoryOptions {
  /** The session to open or create. */
  sessionId: string;
}

/**
 * Persists an agent (or a Graph or Swarm) to S3: restores its messages and state when it starts,
 * stores each new message, syncs state after each invocation. The key layout is Strands Agents'
 * (`<prefix>/session_<id>/agents/agent_<id>/messages/message_<n>.json`, ...), and writes are
 * conditional, so a second writer of the same session gets `SessionConflictError` instead of
 * overwriting the first.
 * @example
 * const sessionManager = new S3SessionManager({ sessionId: 'user-123', bucket: 'my-sessions', prefix: 'test', region: 'eu-west-1' });
 * const agent = new Agent({ model, sessionManager });
 * await agent.invoke('My hobby is horse racing.');
 * sessionManager.destroy();
 */
export class S3SessionManager extends StoreSessionManager<S3SessionRepository> {
  constructor(options: S3SessionManagerOptions) {
    const { sessionId, store } = sessionOptions(options);
    super(sessionId, new S3SessionRepository(store));
  }

  /** Releases the S3 client if the manager created it (a client you passed is left alone); the session's lease is left to expire. */
  destroy(): void {
    this.repository.destroy();
  }

  /**
   * Gives up the session's lease (another writer can start at once), then releases the client the
   * manager created (the manager is done then; `release()` gives the lease up and stays usable).
   */
  override close(): Promise<void> {
    return this.repository.close();
  }
}
