import type { S3Client } from '@aws-sdk/client-s3';
import {
  checkIndex,
  LeaseHeartbeat,
  mapLimit,
  type JsonObject,
  type ListMessagesOptions,
  type NodeTransition,
  type Session,
  type SessionAgent,
  type SessionMessage,
  type SessionMultiAgent,
  type SessionRepository,
} from '@skein/core';
import { records } from './documents.js';

import { S3Keys } from './keys.js';
import { SessionLease } from './lease.js';
import { S3ObjectStore } from './object-store.js';
import { SessionObjects } from './session-objects.js';
import { OrchestratorObjects } from './orchestrator-objects.js';
import { resolveS3Options, type S3SessionRepositoryOptions } from './options.js';

/**
 * Sessions in an S3 bucket, in Strands Agents' key layout, so sessions written by either open in the
 * other. One writer per session: the first write takes a lease object (`If-None-Match: *`), renewed
 * with `If-Match`; a second writer gets `SessionConflictError` before it writes anything. Creates are
 * also `If-None-Match: *` and updates `If-Match` with the ETag this repository last read or wrote.
 * A writer never goes on from a stale view: after `beginView` (which session managers call before
 * they load a session), its next take of the lease fails, writing nothing, when another writer took
 * it since or held it then.
 * @example
 * const repository = new S3SessionRepository({ bucket: 'my-sessions', prefix: 'production', region: 'eu-west-1' });
 * const agent = new Agent({ model, sessionManager: new RepositorySessionManager({ sessionId: 'user-1', repository }) });
 */
export class S3SessionRepository implements SessionRepository {
  /** The bucket sessions live in. */
  readonly bucket: string;
  /** The S3 client in use. */
  readonly client: S3Client;
  readonly #store: S3ObjectStore;
  readonly #objects: SessionObjects;
  readonly #keys: S3Keys;
  readonly #ownsClient: boolean;
  readonly #concurrency: number;
  readonly #orchestrators: OrchestratorObjects;
  /** This writer's lease on each session it wrote to. */
  readonly #leases = new Map<string, SessionLease>();
  readonly #leaseTtlMs: number;
  readonly #takeover: boolean;
  readonly #heartbeat: LeaseHeartbeat;

  constructor(options: S3SessionRepositoryOptions) {
    const resolved = resolveS3Options(options, 'S3SessionRepository');
    this.bucket = resolved.bucket;
    this.client = resolved.client;
    this.#ownsClient = resolved.ownsClient;
    this.#concurrency = resolved.readConcurrency;
    this.#keys = new S3Keys(resolved.prefix);
    this.#store = new S3ObjectStore(resolved.client, resolved.bucket);
    this.#objects = new SessionObjects(this.#store, this.#keys, resolved.bucket);
    this.#orchestrators = new OrchestratorObjects(this.#store, this.#keys, this.#objects, {
      concurrency: this.#concurrency,
      writable: (sessionId) => this.#writable(sessionId),
    });
    this.#leaseTtlMs = resolved.leaseTtlMs;
    this.#takeover = resolved.takeover;
    const leases = () => [...this.#leases.values()];
    this.#heartbeat = new LeaseHeartbeat(
      resolved.leaseTtlMs,
      async () => void (await Promise.allSettled(leases().map((lease) => lease.beat()))),
      () => leases().some((lease) => lease.held),
    );
  }

  /** Releases the S3 client if the repository created it (a client you passed is left alone). Leases are left to expire: `close()` gives them up. */
  destroy(): void {
    if (this.#ownsClient) this.client.destroy();
  }

  /** Gives up this writer's session leases (so another writer need not wait for them to expire), then destroys the client it created. */
  async close(): Promise<void> {
    this.#heartbeat.stop();
    await Promise.all([...this.#leases.values()].map((lease) => lease.release()));
    this.destroy();
  }

  /**
   * Starts this writer's view of `sessionId` (one GET of its lease; a session manager calls it before
   * it reads the session): its next take of the lease fails with `SessionConflictError`, writing
   * nothing, when another writer has taken it since, or held it now. A no-op while this writer holds it.
   */
  async beginView(sessionId: string): Promise<void> {
    await this.#lease(sessionId).beginView();
  }

  /** Gives up this writer's lease on `sessionId` (a released lease replaces it) and keeps its view: the next write takes it again and checks the view. */
  async release(sessionId: string): Promise<void> {
    this.#keys.sessionDir(sessionId);
    await this.#leases.get(sessionId)?.release();
  }

  #lease(sessionId: string): SessionLease {
    let lease = this.#leases.get(sessionId);
    if (!lease) {
      const key = this.#keys.lease(sessionId);
      const place = { sessionId, key, url: this.#objects.url(key) };
      lease = new SessionLease(this.#store, place, { ttlMs: this.#leaseTtlMs }, this.#takeover);
      this.#leases.set(sessionId, lease);
    }
    return lease;
  }

  /** Holds the session's lease (taken on the first write, renewed when half of it is gone, by the heartbeat while idle): one writer per session. */
  async #writable(sessionId: string): Promise<void> {
    await this.#lease(sessionId).ensure();
    this.#heartbeat.poke();
  }

  async createSession(session: Session): Promise<Session> {
    this.#keys.session(session.session_id);
    await this.#writable(session.session_id);
    await this.#objects.create(this.#keys.session(session.session_id), session, `Session ${session.session_id}`);
    return structuredClone(session);
  }

  async readSession(sessionId: string): Promise<Session | undefined> {
    return this.#objects.read(this.#keys.session(sessionId), records.session);
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.#writable(sessionId);
    const dir = this.#keys.sessionDir(sessionId);
    await this.#store.deleteKeys(await this.#store.list(dir)); // the lease goes with the session
    this.#orchestrators.forget(dir);
    this.#leases.get(sessionId)?.emptied();
  }

  async createAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    const key = this.#keys.agent(sessionId, agent.agent_id);
    await this.#writable(sessionId);
    await this.#objects.requireSession(sessionId);
    await this.#objects.create(key, agent, `Agent ${agent.agent_id}`);
  }

  async readAgent(sessionId: string, agentId: string): Promise<SessionAgent | undefined> {
    return this.#objects.read(this.#keys.agent(sessionId, agentId), records.agent);
  }

  async updateAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    await this.#writable(sessionId);
    await this.#objects.replace(this.#keys.agent(sessionId, agent.agent_id), agent, `Agent ${agent.agent_id}`);
  }

  async createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    const key = this.#keys.message(sessionId, agentId, checkIndex(message.message_id, 'message_id'));
    await this.#writable(sessionId);
    await this.#objects.create(key, message, `Message ${message.message_id} of agent ${agentId}`);
  }

  async readMessage(sessionId: string, agentId: string, messageId: number): Promise<SessionMessage | undefined> {
    const id = checkIndex(messageId, 'message id');
    return this.#objects.read(this.#keys.message(sessionId, agentId, id), (text, location) =>
      records.message(text, location, id),
    );
  }

  async updateMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    const key = this.#keys.message(sessionId, agentId, checkIndex(message.message_id, 'message_id'));
    await this.#writable(sessionId);
    await this.#objects.replace(key, message, `Message ${message.message_id} of agent ${agentId}`);
  }

  async listMessages(sessionId: string, agentId: string, options: ListMessagesOptions = {}): Promise<SessionMessage[]> {
    const offset = checkIndex(options.offset ?? 0, 'offset');
    const limit = options.limit === undefined ? Infinity : checkIndex(options.limit, 'limit');
    const dir = this.#keys.messagesDir(sessionId, agentId);
    const ids = await this.#objects.numbered(dir, 'message');
    const wanted = ids.filter((id) => id >= offset).slice(0, limit);
    wanted.forEach((id, i) => {
      if (id !== offset + i)
        this.#objects.missing(
          this.#keys.message(sessionId, agentId, offset + i),
          `message ${offset + i} of agent ${agentId}`,
          id,
        );
    });
    return mapLimit(wanted, this.#concurrency, async (id) => {
      const key = this.#keys.message(sessionId, agentId, id);
      const row = await this.#objects.read(key, (text, location) => records.message(text, location, id));
      return row ?? this.#objects.missing(key, `message ${id} of agent ${agentId}`);
    });
  }

  async deleteMessages(sessionId: string, agentId: string, fromMessageId: number): Promise<void> {
    await this.#writable(sessionId);
    const from = checkIndex(fromMessageId, 'fromMessageId');
    const ids = await this.#objects.numbered(this.#keys.messagesDir(sessionId, agentId), 'message');
    await this.#store.deleteKeys(
      ids.filter((id) => id >= from).map((id) => this.#keys.message(sessionId, agentId, id)),
    );
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
}
