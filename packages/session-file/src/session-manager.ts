import os from 'node:os';
import path from 'node:path';
import { ConfigurationError, StoreSessionManager } from '@skein/core';
import { FileSessionRepository } from './session-repository.js';

/** Options of {@link FileSessionManager}. */
export interface FileSessionManagerOptions {
  /** The session to open or create (letters, digits and `_ . @ = + -`). */
  sessionId: string;
  /** Where sessions live. Default: `<os temp dir>/skein/sessions`. */
  storageDir?: string;
  /** How many message files a restore reads at once. Default 32. */
  readConcurrency?: number;
}

/** The default storage directory: `path.join(os.tmpdir(), 'skein', 'sessions')`. */
export function defaultStorageDir(): string {
  return path.join(os.tmpdir(), 'skein', 'sessions');
}

/**
 * A session manager that keeps sessions on the file system, in the layout of Strands Agents'
 * FileSessionManager. Give it to a standalone agent, or to a Graph or Swarm.
 * @example
 * const sessionManager = new FileSessionManager({ sessionId: 'user-123', storageDir: './sessions' });
 * const agent = new Agent({ model, sessionManager });
 * await agent.invoke('Hello!');   // persisted under ./sessions/session_user-123/
 * await sessionManager.close();   // lets another process write this session (release() does the same between turns)
 *
 * `close()` releases this writer's locks (also done at process exit). The manager stays usable, like
 * after `release()`: its next write locks the session again, and fails with `SessionConflictError`
 * if another writer wrote the session in between.
 */
export class FileSessionManager extends StoreSessionManager<FileSessionRepository> {
  constructor(options: FileSessionManagerOptions) {
    if (!options || typeof options !== 'object')
      throw new ConfigurationError('FileSessionManager needs { sessionId, storageDir? }.');
    if (
      options.storageDir !== undefined &&
      (typeof options.storageDir !== 'string' || options.storageDir.trim() === '')
    ) {
      throw new ConfigurationError(
        `storageDir must be a non-empty path (got ${JSON.stringify(options.storageDir)}); leave it out for the default ${defaultStorageDir()}.`,
      );
    }
    const repository = new FileSessionRepository({
      storageDir: options.storageDir ?? defaultStorageDir(),
      ...(options.readConcurrency === undefined ? {} : { readConcurrency: options.readConcurrency }),
    });
    super(options.sessionId, repository);
  }

  /** The absolute directory sessions are stored in. */
  get storageDir(): string {
    return this.repository.storageDir;
  }
}
