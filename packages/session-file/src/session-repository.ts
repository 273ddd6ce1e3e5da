import { statSync } from 'node:fs';
import { checkSessionId, ConfigurationError, SessionStore } from '@skein/core';
import { AgentFiles } from './agent-files.js';
import { errnoCode } from './errors.js';
import { OrchestratorFiles } from './orchestrator-files.js';
import { SessionFiles } from './session-files.js';
import { SessionPaths } from './session-paths.js';

/** Options of {@link FileSessionRepository}. */
export interface FileSessionRepositoryOptions {
  /** The directory holding `session_<id>` directories (created on first write). */
  storageDir: string;
  /** How many files `listMessages` reads at once. Default 32. */
  readConcurrency?: number;
}

/**
 * Sessions on the file system, in the layout of Strands Agents' FileSessionManager (so a directory
 * written by either opens in the other). Every write is atomic; ids are validated; the first write to
 * a session takes a lock file in it, so a second writer (another process or another repository
 * instance) gets `SessionConflictError`. Call `close()` to release the locks (they are also released
 * at process exit, and a lock whose process died on this host is recovered). A writer never goes on
 * from a stale view: after `beginView` (which session managers call before they load a session), its
 * next lock fails with `SessionConflictError`, writing nothing, when another writer wrote the session
 * since or held it then.
 * @example
 * const repository = new FileSessionRepository({ storageDir: './sessions' });
 * const agent = new Agent({ model, sessionManager: new RepositorySessionManager({ sessionId: 'user-1', repository }) });
 */
export class FileSessionRepository extends SessionStore {
  /** The absolute storage directory. */
  readonly storageDir: string;
  protected readonly records: AgentFiles;
  protected readonly orchestrators: OrchestratorFiles;
  readonly #paths: SessionPaths;
  readonly #files: SessionFiles;

  constructor(options: FileSessionRepositoryOptions) {
    super();
    if (!options || typeof options.storageDir !== 'string' || options.storageDir.trim() === '') {
      throw new ConfigurationError('FileSessionRepository needs { storageDir: "<directory>" } (a non-empty path).');
    }
    const concurrency = options.readConcurrency ?? 32;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new ConfigurationError(`readConcurrency must be an integer >= 1 (got ${String(concurrency)}).`);
    this.#paths = new SessionPaths(options.storageDir);
    this.storageDir = this.#paths.root;
    this.#files = new SessionFiles(this.#paths);
    const store = { paths: this.#paths, files: this.#files, concurrency };
    this.records = new AgentFiles(store);
    this.orchestrators = new OrchestratorFiles(store);
    let stat;
    try {
      stat = statSync(this.storageDir, { throwIfNoEntry: false });
    } catch (error) {
      throw new ConfigurationError(
        `storageDir ${this.storageDir} cannot be used (${errnoCode(error) === 'ENOTDIR' ? 'a part of the path is a file' : String(error)}); point storageDir at a directory.`,
        { cause: error },
      );
    }
    if (stat && !stat.isDirectory()) {
      throw new ConfigurationError(
        `storageDir ${this.storageDir} is a file, not a directory; point storageDir at a directory (it is created if missing).`,
      );
    }
  }

  /**
   * Starts this writer's view of `sessionId` (a session manager calls it before it reads the session):
   * its next claim of the session fails with `SessionConflictError`, writing nothing, when another
   * writer has claimed it since, or held it now. A no-op while this instance holds the session.
   */
  async beginView(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    if (this.#files.holds(sessionId)) return;
    await this.#files.views.begin(sessionId);
  }

  /** Gives up this instance's lock on `sessionId` (if held) and keeps its view: the next write locks it again and checks the view. */
  async release(sessionId: string): Promise<void> {
    checkSessionId(sessionId, 'session id');
    return this.#files.release(sessionId);
  }

  /** Releases the session locks this instance holds, so another writer may open those sessions (views are kept, as by `release`). */
  close(): Promise<void> {
    return this.#files.close();
  }
}
