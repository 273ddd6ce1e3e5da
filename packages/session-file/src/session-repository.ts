import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  ConfigurationError,
  mapLimit,
  SessionCorruptError,
  SessionNotFoundError,
  type JsonObject,
  type ListMessagesOptions,
  type NodeTransition,
  type Session,
  type SessionAgent,
  type SessionMessage,
  type SessionMultiAgent,
  type SessionRepository,
} from '@skein/core';
import { syncDir } from './atomic-write.js';
import { errnoCode, fsError } from './errors.js';
import { OrchestratorFiles } from './orchestrator-files.js';
import { agentDoc, messageDoc, readJson, toAgent, toMessage, toSession } from './documents.js';
import { SessionFiles, numbered } from './session-files.js';
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
export class FileSessionRepository implements SessionRepository {
  /** The absolute storage directory. */
  readonly storageDir: string;
  readonly #paths: SessionPaths;
  readonly #concurrency: number;
  readonly #files: SessionFiles;
  readonly #orchestrators: OrchestratorFiles;

  constructor(options: FileSessionRepositoryOptions) {
    if (!options || typeof options.storageDir !== 'string' || options.storageDir.trim() === '') {
      throw new ConfigurationError('FileSessionRepository needs { storageDir: "<directory>" } (a non-empty path).');
    }
    const concurrency = options.readConcurrency ?? 32;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new ConfigurationError(`readConcurrency must be an integer >= 1 (got ${String(concurrency)}).`);
    this.#paths = new SessionPaths(options.storageDir);
    this.storageDir = this.#paths.root;
    this.#concurrency = concurrency;
    this.#files = new SessionFiles(this.#paths);
    this.#orchestrators = new OrchestratorFiles(this.#paths, this.#files, concurrency);
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
    this.#paths.session(sessionId);
    if (this.#files.holds(sessionId)) return;
    await this.#files.views.begin(sessionId);
  }

  /** Gives up this instance's lock on `sessionId` (if held) and keeps its view: the next write locks it again and checks the view. */
  release(sessionId: string): Promise<void> {
    this.#paths.session(sessionId);
    return this.#files.release(sessionId);
  }

  async createSession(session: Session): Promise<Session> {
    const file = this.#paths.sessionFile(session.session_id);
    await this.#files.writable(session.session_id);
    const doc = {
      session_id: session.session_id,
      session_type: session.session_type,
      created_at: session.created_at,
      updated_at: session.updated_at,
    };
    await this.#files.write(file, doc, 'create', `Session ${session.session_id}`);
    return doc;
  }

  async readSession(sessionId: string): Promise<Session | undefined> {
    const file = this.#paths.sessionFile(sessionId);
    const raw = await readJson(file, this.storageDir);
    return raw === undefined ? undefined : toSession(raw, file);
  }

  async deleteSession(sessionId: string): Promise<void> {
    const dir = this.#paths.session(sessionId);
    if (!(await this.#files.exists(dir))) return;
    await this.#files.writable(sessionId);
    const trash = path.join(this.storageDir, `.deleted-session_${sessionId}-${randomBytes(6).toString('hex')}`);
    try {
      await fs.rename(dir, trash); // the session disappears at once; a crash leaves only the hidden trash
    } catch (error) {
      throw fsError(error, 'delete', dir, this.storageDir);
    }
    this.#files.forget(sessionId);
    this.#files.views.emptied(sessionId);
    await fs.rm(trash, { recursive: true, force: true });
  }

  async createAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    const file = this.#paths.agentFile(sessionId, agent.agent_id);
    await this.#files.require(
      this.#paths.sessionFile(sessionId),
      `Session ${sessionId} does not exist; create it first.`,
    );
    await this.#files.writable(sessionId);
    await this.#files.mkdir(this.#paths.messages(sessionId, agent.agent_id));
    await this.#files.write(file, agentDoc(agent), 'create', `Agent ${agent.agent_id} of session ${sessionId}`);
  }

  async readAgent(sessionId: string, agentId: string): Promise<SessionAgent | undefined> {
    const file = this.#paths.agentFile(sessionId, agentId);
    const raw = await readJson(file, this.storageDir);
    return raw === undefined ? undefined : toAgent(raw, file);
  }

  async updateAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    const file = this.#paths.agentFile(sessionId, agent.agent_id);
    await this.#files.require(file, `Agent ${agent.agent_id} does not exist in session ${sessionId}; create it first.`);
    await this.#files.writable(sessionId);
    await this.#files.write(file, agentDoc(agent), 'replace', `Agent ${agent.agent_id}`);
  }

  async createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    const file = this.#paths.messageFile(sessionId, agentId, message.message_id);
    await this.#files.require(
      this.#paths.agentFile(sessionId, agentId),
      `Agent ${agentId} does not exist in session ${sessionId}; create it first.`,
    );
    await this.#files.writable(sessionId);
    await this.#files.mkdir(path.dirname(file));
    await this.#files.write(file, messageDoc(message), 'create', `Message ${message.message_id} of agent ${agentId}`);
  }

  async readMessage(sessionId: string, agentId: string, messageId: number): Promise<SessionMessage | undefined> {
    const file = this.#paths.messageFile(sessionId, agentId, messageId);
    const raw = await readJson(file, this.storageDir);
    return raw === undefined ? undefined : toMessage(raw, file, messageId);
  }

  async updateMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    const file = this.#paths.messageFile(sessionId, agentId, message.message_id);
    if (!(await this.#files.exists(file)))
      throw new SessionNotFoundError(`Message ${message.message_id} of agent ${agentId} does not exist (${file}).`, {
        location: file,
      });
    await this.#files.writable(sessionId);
    await this.#files.write(file, messageDoc(message), 'replace', `Message ${message.message_id} of agent ${agentId}`);
  }

  async listMessages(sessionId: string, agentId: string, options: ListMessagesOptions = {}): Promise<SessionMessage[]> {
    const dir = this.#paths.messages(sessionId, agentId);
    const offset = options.offset ?? 0;
    const limit = options.limit ?? Infinity;
    const ids = await numbered(dir, 'message', this.storageDir);
    if (ids === undefined) {
      if (await this.readAgent(sessionId, agentId)) return [];
      throw new SessionNotFoundError(
        `Agent ${agentId} does not exist in session ${sessionId} (${path.dirname(dir)}).`,
        { location: path.dirname(dir) },
      );
    }
    const wanted = ids.filter((id) => id >= offset).slice(0, limit);
    wanted.forEach((id, i) => {
      if (id !== offset + i) {
        const missing = path.join(dir, `message_${offset + i}.json`);
        throw new SessionCorruptError(
          `${missing} is missing: agent ${agentId} of session ${sessionId} has message ${id} but not message ${offset + i}. Restore that file from a backup; nothing was changed.`,
          { location: missing },
        );
      }
    });
    return mapLimit(wanted, this.#concurrency, async (id) => {
      const file = path.join(dir, `message_${id}.json`);
      const raw = await readJson(file, this.storageDir);
      if (raw === undefined)
        throw new SessionCorruptError(
          `${file} disappeared while it was read; is another process deleting this session?`,
          { location: file },
        );
      return toMessage(raw, file, id);
    });
  }

  async deleteMessages(sessionId: string, agentId: string, fromMessageId: number): Promise<void> {
    const dir = this.#paths.messages(sessionId, agentId);
    const ids = (await numbered(dir, 'message', this.storageDir)) ?? [];
    const doomed = ids.filter((id) => id >= fromMessageId).reverse(); // newest first: a crash leaves a whole prefix
    if (doomed.length === 0) return;
    await this.#files.writable(sessionId);
    await this.#files.contained(dir);
    for (const id of doomed)
      await fs.unlink(path.join(dir, `message_${id}.json`)).catch((e: unknown) => this.#ignoreMissing(e, dir));
    await syncDir(dir);
  }

  createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    return this.#orchestrators.create(sessionId, multiAgent);
  }

  readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined> {
    return this.#orchestrators.read(sessionId, multiAgentId);
  }

  updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    return this.#orchestrators.update(sessionId, multiAgent);
  }

  deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void> {
    return this.#orchestrators.delete(sessionId, multiAgentId);
  }

  putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void> {
    return this.#orchestrators.putNodeEntry(sessionId, multiAgentId, nodeId, entry);
  }

  readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>> {
    return this.#orchestrators.readNodeEntries(sessionId, multiAgentId);
  }

  appendTransitions(sessionId: string, multiAgentId: string, transitions: readonly NodeTransition[]): Promise<void> {
    return this.#orchestrators.appendTransitions(sessionId, multiAgentId, transitions);
  }

  readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]> {
    return this.#orchestrators.readTransitions(sessionId, multiAgentId);
  }

  /** Releases the session locks this instance holds, so another writer may open those sessions (views are kept, as by `release`). */
  close(): Promise<void> {
    return this.#files.close();
  }

  #ignoreMissing(error: unknown, dir: string): void {
    if (errnoCode(error) !== 'ENOENT') throw fsError(error, 'delete a message in', dir, this.storageDir);
  }
}
