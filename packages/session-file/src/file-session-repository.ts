import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  ConfigurationError,
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
import { errnoCode, fsError } from './fs-errors.js';
import { mapLimit } from './map-limit.js';
import { readJson, toAgent, toMessage, toMultiAgent, toNodeEntry, toSession, toTransition } from './records.js';
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

  async createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    const file = this.#paths.multiAgentFile(sessionId, multiAgent.id);
    await this.#files.require(
      this.#paths.sessionFile(sessionId),
      `Session ${sessionId} does not exist; create it first.`,
    );
    await this.#files.writable(sessionId);
    await this.#files.mkdir(path.dirname(file));
    await this.#files.write(
      file,
      multiAgentDoc(multiAgent),
      'create',
      `Orchestrator ${multiAgent.id} of session ${sessionId}`,
    );
  }

  async readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined> {
    const file = this.#paths.multiAgentFile(sessionId, multiAgentId);
    const raw = await readJson(file, this.storageDir);
    return raw === undefined ? undefined : toMultiAgent(raw, file);
  }

  async updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    const file = this.#paths.multiAgentFile(sessionId, multiAgent.id);
    await this.#files.require(
      file,
      `Orchestrator ${multiAgent.id} does not exist in session ${sessionId}; create it first.`,
    );
    await this.#files.writable(sessionId);
    await this.#files.write(file, multiAgentDoc(multiAgent), 'replace', `Orchestrator ${multiAgent.id}`);
  }

  async deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void> {
    const dir = this.#paths.multiAgent(sessionId, multiAgentId);
    if (!(await this.#files.exists(dir))) return;
    await this.#files.writable(sessionId);
    const trash = path.join(path.dirname(dir), `.deleted-${path.basename(dir)}-${randomBytes(6).toString('hex')}`);
    await fs.rename(dir, trash).catch((e: unknown) => {
      throw fsError(e, 'delete', dir, this.storageDir);
    });
    this.#files.forget();
    await fs.rm(trash, { recursive: true, force: true });
  }

  async putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void> {
    const file = this.#paths.nodeFile(sessionId, multiAgentId, nodeId);
    await this.#files.require(
      this.#paths.multiAgentFile(sessionId, multiAgentId),
      `Orchestrator ${multiAgentId} does not exist in session ${sessionId}; save its state first.`,
    );
    await this.#files.writable(sessionId);
    await this.#files.mkdir(path.dirname(file));
    await this.#files.write(file, entry, 'replace', `Node ${nodeId} of ${multiAgentId}`);
  }

  async readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>> {
    const dir = this.#paths.nodes(sessionId, multiAgentId);
    let names: string[];
    try {
      names = (await fs.readdir(dir)).filter((n) => /^node_.+\.json$/.test(n));
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return {};
      throw fsError(error, 'list', dir, this.storageDir);
    }
    const entries = await mapLimit(names, this.#concurrency, async (name) => {
      const file = path.join(dir, name);
      return [
        name.slice('node_'.length, -'.json'.length),
        toNodeEntry(await readJson(file, this.storageDir), file),
      ] as const;
    });
    return Object.fromEntries(entries);
  }

  async appendTransitions(
    sessionId: string,
    multiAgentId: string,
    transitions: readonly NodeTransition[],
  ): Promise<void> {
    if (transitions.length === 0) return;
    const dir = this.#paths.transitions(sessionId, multiAgentId);
    for (const t of transitions) this.#paths.transitionFile(sessionId, multiAgentId, t.seq);
    await this.#files.require(
      this.#paths.multiAgentFile(sessionId, multiAgentId),
      `Orchestrator ${multiAgentId} does not exist in session ${sessionId}; save its state first.`,
    );
    await this.#files.writable(sessionId);
    await this.#files.mkdir(dir);
    for (const t of transitions) {
      const doc = {
        seq: t.seq,
        from: t.from,
        to: t.to,
        kind: t.kind,
        reason: t.reason,
        ...(t.details ? { details: t.details } : {}),
        at: t.at,
      };
      await this.#files.write(
        this.#paths.transitionFile(sessionId, multiAgentId, t.seq),
        doc,
        'create',
        `Transition ${t.seq} of ${multiAgentId}`,
      );
    }
  }

  async readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]> {
    const dir = this.#paths.transitions(sessionId, multiAgentId);
    const seqs = (await numbered(dir, 'transition', this.storageDir)) ?? [];
    seqs.forEach((seq, i) => {
      if (seq !== i) {
        const missing = path.join(dir, `transition_${i}.json`);
        throw new SessionCorruptError(
          `${missing} is missing (the history has transition ${seq}); restore it from a backup.`,
          { location: missing },
        );
      }
    });
    return mapLimit(seqs, this.#concurrency, async (seq) => {
      const file = path.join(dir, `transition_${seq}.json`);
      return toTransition(await readJson(file, this.storageDir), file, seq);
    });
  }

  /** Releases the session locks this instance holds, so another writer may open those sessions (views are kept, as by `release`). */
  close(): Promise<void> {
    return this.#files.close();
  }

  #ignoreMissing(error: unknown, dir: string): void {
    if (errnoCode(error) !== 'ENOENT') throw fsError(error, 'delete a message in', dir, this.storageDir);
  }
}

const agentDoc = (a: SessionAgent): SessionAgent => ({
  agent_id: a.agent_id,
  state: a.state,
  conversation_manager_state: a.conversation_manager_state,
  ...(a._internal_state ? { _internal_state: a._internal_state } : {}),
  created_at: a.created_at,
  updated_at: a.updated_at,
});

const messageDoc = (m: SessionMessage): SessionMessage => ({
  message: m.message,
  message_id: m.message_id,
  redact_message: m.redact_message ?? null,
  created_at: m.created_at,
  updated_at: m.updated_at,
});

const multiAgentDoc = (m: SessionMultiAgent): SessionMultiAgent => ({
  id: m.id,
  type: m.type,
  state: m.state,
  created_at: m.created_at,
  updated_at: m.updated_at,
});
