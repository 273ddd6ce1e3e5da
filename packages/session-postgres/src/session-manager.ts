import { sessionOptions, StoreSessionManager } from '@skein/core';
import type { PostgresSessionRepositoryOptions } from './options.js';
import { PostgresSessionRepository } from './session-repository.js';

/** Options of {@link PostgresSessionManager}: the session id plus the database (a connection string or a pool). */
export type PostgresSessionManagerOptions = PostgresSessionRepositoryOptions & {
  /** The session to open or create. */
  sessionId: string;
};

/**
 * Persists an agent (or a Graph or Swarm) in PostgreSQL: restores its messages and state when it
 * starts, stores each new message, and stores each orchestrator step in one transaction.
 * @example
 * const sessionManager = new PostgresSessionManager({ sessionId: 'user-123', connectionString: 'postgres://app@db:5432/desk' });
 * const agent = new Agent({ model, sessionManager });
 * await agent.invoke('My hobby is horse racing.');
 * await sessionManager.close();
 */
export class PostgresSessionManager extends StoreSessionManager<PostgresSessionRepository> {
  constructor(options: PostgresSessionManagerOptions) {
    const { sessionId, store } = sessionOptions(options);
    super(sessionId, new PostgresSessionRepository(store as PostgresSessionRepositoryOptions));
  }
}
