import { sessionOptions, StoreSessionManager } from '@skein/core';
import type { SqliteSessionRepositoryOptions } from './options.js';
import { SqliteSessionRepository } from './session-repository.js';

/** Options of {@link SqliteSessionManager}: the session id plus the database. */
export interface SqliteSessionManagerOptions extends SqliteSessionRepositoryOptions {
  /** The session to open or create. */
  sessionId: string;
}

/**
 * Persists an agent (or a Graph or Swarm) in an SQLite database file: restores its messages and
 * state when it starts, stores each new message, and stores each orchestrator step in one
 * transaction. One database file holds any number of sessions.
 * @example
 * const sessionManager = new SqliteSessionManager({ sessionId: 'user-123', path: './desk.db' });
 * const agent = new Agent({ model, sessionManager });
 * await agent.invoke('My hobby is horse racing.');
 * await sessionManager.close();
 */
export class SqliteSessionManager extends StoreSessionManager<SqliteSessionRepository> {
  constructor(options: SqliteSessionManagerOptions) {
    const { sessionId, store } = sessionOptions(options);
    super(sessionId, new SqliteSessionRepository(store));
  }
}
