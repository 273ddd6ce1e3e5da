/**
 * The session, agent and message files of a file session, in Strands Agents' layout
 * (`session_<id>/session.json`, `agents/agent_<id>/agent.json`, `.../messages/message_<n>.json`).
 * Writes go through the session's lock and view (`SessionFiles.writable`).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  mapLimit,
  SessionCorruptError,
  SessionNotFoundError,
  type AgentRecords,
  type ListMessagesOptions,
  type Session,
  type SessionAgent,
  type SessionMessage,
} from '@skein/core';
import { syncDir } from './atomic-write.js';
import { agentDoc, messageDoc, readJson, toAgent, toMessage, toSession } from './documents.js';
import { errnoCode, fsError } from './errors.js';
import { numbered, type FileStore, type SessionFiles } from './session-files.js';
import type { SessionPaths } from './session-paths.js';

/** The agent half of `FileSessionRepository`. */
export class AgentFiles implements AgentRecords {
  readonly #paths: SessionPaths;
  readonly #files: SessionFiles;
  readonly #concurrency: number;

  constructor(store: FileStore) {
    ({ paths: this.#paths, files: this.#files, concurrency: this.#concurrency } = store);
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
    const raw = await readJson(file, this.#paths.root);
    return raw === undefined ? undefined : toSession(raw, file);
  }

  async deleteSession(sessionId: string): Promise<void> {
    const dir = this.#paths.session(sessionId);
    if (!(await this.#files.exists(dir))) return;
    await this.#files.writable(sessionId);
    const trash = path.join(this.#paths.root, `.deleted-session_${sessionId}-${randomBytes(6).toString('hex')}`);
    try {
      await fs.rename(dir, trash); // the session disappears at once; a crash leaves only the hidden trash
    } catch (error) {
      throw fsError(error, 'delete', dir, this.#paths.root);
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
    const raw = await readJson(file, this.#paths.root);
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
    const raw = await readJson(file, this.#paths.root);
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
    const ids = await numbered(dir, 'message', this.#paths.root);
    if (ids === undefined) {
      if (await this.readAgent(sessionId, agentId)) return [];
      throw new SessionNotFoundError(
        `Agent ${agentId} does not exist in session ${sessionId} (${path.dirname(dir)}).`,
        { location: path.dirname(dir) },
      );
    }
    const wanted = ids.filter((id) => id >= offset).slice(0, options.limit ?? Infinity);
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
      const raw = await readJson(file, this.#paths.root);
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
    const ids = (await numbered(dir, 'message', this.#paths.root)) ?? [];
    const doomed = ids.filter((id) => id >= fromMessageId).reverse(); // newest first: a crash leaves a whole prefix
    if (doomed.length === 0) return;
    await this.#files.writable(sessionId);
    await this.#files.contained(dir);
    for (const id of doomed)
      await fs.unlink(path.join(dir, `message_${id}.json`)).catch((error: unknown) => {
        if (errnoCode(error) !== 'ENOENT') throw fsError(error, 'delete a message in', dir, this.#paths.root);
      });
    await syncDir(dir);
  }
}
