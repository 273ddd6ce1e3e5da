/**
 * The session, agent and message objects of an S3 session, in Strands Agents' key layout. Writes
 * hold the session's lease (`writable`) like every other write of the repository.
 */
import {
  mapLimit,
  type AgentRecords,
  type ListMessagesOptions,
  type Session,
  type SessionAgent,
  type SessionMessage,
} from '@skein/core';
import { records } from './documents.js';
import type { S3Keys } from './keys.js';
import type { S3ObjectStore } from './object-store.js';
import type { SessionObjects } from './session-objects.js';

/** The agent half of `S3SessionRepository`. */
export class AgentObjects implements AgentRecords {
  readonly #store: S3ObjectStore;
  readonly #keys: S3Keys;
  readonly #objects: SessionObjects;
  readonly #concurrency: number;
  readonly #writable: (sessionId: string) => Promise<void>;
  readonly #deleted: (sessionId: string) => void;

  constructor(
    store: S3ObjectStore,
    keys: S3Keys,
    objects: SessionObjects,
    options: {
      concurrency: number;
      writable: (sessionId: string) => Promise<void>;
      /** Told after a session was deleted (its lease went with it). */
      deleted: (sessionId: string) => void;
    },
  ) {
    this.#store = store;
    this.#keys = keys;
    this.#objects = objects;
    this.#concurrency = options.concurrency;
    this.#writable = options.writable;
    this.#deleted = options.deleted;
  }

  async createSession(session: Session): Promise<Session> {
    await this.#writable(session.session_id);
    await this.#objects.create(this.#keys.session(session.session_id), session, `Session ${session.session_id}`);
    return structuredClone(session);
  }

  readSession(sessionId: string): Promise<Session | undefined> {
    return this.#objects.read(this.#keys.session(sessionId), records.session);
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.#writable(sessionId);
    await this.#store.deleteKeys(await this.#store.list(this.#keys.sessionDir(sessionId))); // the lease goes with the session
    this.#deleted(sessionId);
  }

  async createAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    await this.#writable(sessionId);
    await this.#objects.requireSession(sessionId);
    await this.#objects.create(this.#keys.agent(sessionId, agent.agent_id), agent, `Agent ${agent.agent_id}`);
  }

  readAgent(sessionId: string, agentId: string): Promise<SessionAgent | undefined> {
    return this.#objects.read(this.#keys.agent(sessionId, agentId), records.agent);
  }

  async updateAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    await this.#writable(sessionId);
    await this.#objects.replace(this.#keys.agent(sessionId, agent.agent_id), agent, `Agent ${agent.agent_id}`);
  }

  async createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    await this.#writable(sessionId);
    const key = this.#keys.message(sessionId, agentId, message.message_id);
    await this.#objects.create(key, message, `Message ${message.message_id} of agent ${agentId}`);
  }

  readMessage(sessionId: string, agentId: string, messageId: number): Promise<SessionMessage | undefined> {
    return this.#objects.read(this.#keys.message(sessionId, agentId, messageId), (text, location) =>
      records.message(text, location, messageId),
    );
  }

  async updateMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    await this.#writable(sessionId);
    const key = this.#keys.message(sessionId, agentId, message.message_id);
    await this.#objects.replace(key, message, `Message ${message.message_id} of agent ${agentId}`);
  }

  async listMessages(sessionId: string, agentId: string, options: ListMessagesOptions = {}): Promise<SessionMessage[]> {
    const offset = options.offset ?? 0;
    const ids = await this.#objects.numbered(this.#keys.messagesDir(sessionId, agentId), 'message');
    const wanted = ids.filter((id) => id >= offset).slice(0, options.limit ?? Infinity);
    const name = (id: number) => `message ${id} of agent ${agentId}`;
    wanted.forEach((id, i) => {
      if (id !== offset + i)
        this.#objects.missing(this.#keys.message(sessionId, agentId, offset + i), name(offset + i), id);
    });
    return mapLimit(wanted, this.#concurrency, async (id) => {
      const key = this.#keys.message(sessionId, agentId, id);
      const row = await this.#objects.read(key, (text, location) => records.message(text, location, id));
      return row ?? this.#objects.missing(key, name(id));
    });
  }

  async deleteMessages(sessionId: string, agentId: string, fromMessageId: number): Promise<void> {
    await this.#writable(sessionId);
    const ids = await this.#objects.numbered(this.#keys.messagesDir(sessionId, agentId), 'message');
    const doomed = ids.filter((id) => id >= fromMessageId).map((id) => this.#keys.message(sessionId, agentId, id));
    await this.#store.deleteKeys(doomed);
  }
}
