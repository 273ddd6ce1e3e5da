import { RepositorySessionManager } from '../repository-session-manager.js';
import type { SessionRepository } from '../session-repository.js';

/**
 * The session manager of a store package (`FileSessionManager`, `S3SessionManager`,
 * `SqliteSessionManager`, `PostgresSessionManager`): a `RepositorySessionManager` over the store's
 * own repository, whose `close()` closes that repository (gives its claims up and frees what it made).
 */
export class StoreSessionManager<
  R extends SessionRepository & { close(): Promise<void> },
> extends RepositorySessionManager {
  /** The repository underneath (also usable directly). */
  declare readonly repository: R;

  constructor(sessionId: string, repository: R) {
    super({ sessionId, repository });
  }

  /** Gives up this writer's claims on its sessions and closes the repository (see the store's `close()`). */
  override close(): Promise<void> {
    return this.repository.close();
  }
}
