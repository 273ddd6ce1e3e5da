import type { S3Client } from '@aws-sdk/client-s3';
import {
  checkSessionId,
  serializeSessionData,
  SessionConflictError,
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
import { mapLimit } from './map-limit.js';
import {
  parseAgent,
  parseMessage,
  parseMultiAgent,
  parseNodeEntry,
  parseSession,
  parseTransition,
} from './s3-documents.js';
import { nodeIdOfKey, numberedKey, S3Keys } from './s3-keys.js';
import { SessionLease } from './s3-lease.js';
import { S3ObjectStore } from './s3-object-store.js';
import { resolveS3Options, type S3SessionRepositoryOptions } from './s3-options.js';

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
  readonly #keys: S3Keys;
  readonly #ownsClient: boolean;
  readonly #concurrency: number;
  /** Next transition seq per orchestrator dir, when known from a read or an append. */
  readonly #nextSeq = new Map<string, number>();
  /** Node dirs this repository has listed (so it knows every entry that existed then). */
  readonly #listedNodes = new Set<string>();
  /** This writer's lease on each session it wrote to. */
  readonly #leases = new Map<string, SessionLease>();
  readonly #leaseTtlMs: number;
  readonly #takeover: boolean;

  constructor(options: S3SessionRepositoryOptions) {
    const resolved = resolveS3Options(options, 'S3SessionRepository');
    this.bucket = resolved.bucket;
    this.client = resolved.client;
    this.#ownsClient = resolved.ownsClient;
    this.#concurrency = resolved.readConcurrency;
    this.#keys = new S3Keys(resolved.prefix);
    this.#store = new S3ObjectStore(resolved.client, resolved.bucket);
    this.#leaseTtlMs = resolved.leaseTtlMs;
    this.#takeover = resolved.takeover;
  }

  /** Releases the S3 client if the repository created it (a client you passed is left alone). Leases are left to expire: `close()` gives them up. */
  destroy(): void {
    if (this.#ownsClient) this.client.destroy();
  }

  /** Gives up this writer's session leases (so another writer need not wait for them to expire), then destroys the client it created. */
  async close(): Promise<void> {
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
      const place = { sessionId, key, url: this.#url(key) };
      lease = new SessionLease(this.#store, place, { ttlMs: this.#leaseTtlMs }, this.#takeover);
      this.#leases.set(sessionId, lease);
    }
    return lease;
  }

  /** Holds the session's lease (taken on the first write, renewed when half of it is gone): one writer per session. */
  async #writable(sessionId: string): Promise<void> {
    await this.#lease(sessionId).ensure();
  }

  #url(key: string): string {
    return `s3://${this.bucket}/${key}`;
  }

  async #create(key: string, value: unknown, what: string): Promise<void> {
    if (!(await this.#store.create(key, serializeSessionData(value)))) {
      throw new SessionConflictError(
        `${what} already exists at ${this.#url(key)}; another writer created it. Nothing was overwritten.`,
        {
          location: this.#url(key),
        },
      );
    }
  }

  async #replace(key: string, value: unknown, what: string): Promise<void> {
    const outcome = await this.#store.replace(key, serializeSessionData(value));
    if (outcome === 'missing')
      throw new SessionNotFoundError(`${what} does not exist at ${this.#url(key)}; create it first.`, {
        location: this.#url(key),
      });
    if (outcome === 'changed') {
      throw new SessionConflictError(
        `${what} at ${this.#url(key)} was changed by another writer since this process read it; nothing was overwritten. Reopen the session to continue from what is stored.`,
        { location: this.#url(key) },
      );
    }
  }

  async #requireSession(sessionId: string): Promise<void> {
    const key = this.#keys.session(sessionId);
    if ((await this.#store.head(key)) === undefined) {
      throw new SessionNotFoundError(`Session ${sessionId} does not exist (no ${this.#url(key)}); create it first.`, {
        location: this.#url(key),
      });
    }
  }

  async #read<T>(key: string, parse: (text: string, location: string) => T): Promise<T | undefined> {
    const text = await this.#store.get(key);
    return text === undefined ? undefined : parse(text, this.#url(key));
  }

  async createSession(session: Session): Promise<Session> {
    this.#keys.session(session.session_id);
    await this.#writable(session.session_id);
    await this.#create(this.#keys.session(session.session_id), session, `Session ${session.session_id}`);
    return structuredClone(session);
  }

  async readSession(sessionId: string): Promise<Session | undefined> {
    return this.#read(this.#keys.session(sessionId), parseSession);
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.#writable(sessionId);
    const dir = this.#keys.sessionDir(sessionId);
    await this.#store.deleteKeys(await this.#store.list(dir)); // the lease goes with the session
    this.#forget(dir);
    this.#leases.get(sessionId)?.emptied();
  }

  async createAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    const key = this.#keys.agent(sessionId, agent.agent_id);
    await this.#writable(sessionId);
    await this.#requireSession(sessionId);
    await this.#create(key, agent, `Agent ${agent.agent_id}`);
  }

  async readAgent(sessionId: string, agentId: string): Promise<SessionAgent | undefined> {
    return this.#read(this.#keys.agent(sessionId, agentId), parseAgent);
  }

  async updateAgent(sessionId: string, agent: SessionAgent): Promise<void> {
    await this.#writable(sessionId);
    await this.#replace(this.#keys.agent(sessionId, agent.agent_id), agent, `Agent ${agent.agent_id}`);
  }

  async createMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    const key = this.#keys.message(sessionId, agentId, checkIndex(message.message_id, 'message_id'));
    await this.#writable(sessionId);
    await this.#create(key, message, `Message ${message.message_id} of agent ${agentId}`);
  }

  async readMessage(sessionId: string, agentId: string, messageId: number): Promise<SessionMessage | undefined> {
    const id = checkIndex(messageId, 'message id');
    return this.#read(this.#keys.message(sessionId, agentId, id), (text, location) => parseMessage(text, location, id));
  }

  async updateMessage(sessionId: string, agentId: string, message: SessionMessage): Promise<void> {
    const key = this.#keys.message(sessionId, agentId, checkIndex(message.message_id, 'message_id'));
    await this.#writable(sessionId);
    await this.#replace(key, message, `Message ${message.message_id} of agent ${agentId}`);
  }

  async listMessages(sessionId: string, agentId: string, options: ListMessagesOptions = {}): Promise<SessionMessage[]> {
    const offset = checkIndex(options.offset ?? 0, 'offset');
    const limit = options.limit === undefined ? Infinity : checkIndex(options.limit, 'limit');
    const dir = this.#keys.messagesDir(sessionId, agentId);
    const ids = await this.#numbered(dir, 'message');
    const wanted = ids.filter((id) => id >= offset).slice(0, limit);
    wanted.forEach((id, i) => {
      if (id !== offset + i)
        this.#missing(
          this.#keys.message(sessionId, agentId, offset + i),
          `message ${offset + i} of agent ${agentId}`,
          id,
        );
    });
    return mapLimit(wanted, this.#concurrency, async (id) => {
      const key = this.#keys.message(sessionId, agentId, id);
      const row = await this.#read(key, (text, location) => parseMessage(text, location, id));
      return row ?? this.#missing(key, `message ${id} of agent ${agentId}`);
    });
  }

  async deleteMessages(sessionId: string, agentId: string, fromMessageId: number): Promise<void> {
    await this.#writable(sessionId);
    const from = checkIndex(fromMessageId, 'fromMessageId');
    const ids = await this.#numbered(this.#keys.messagesDir(sessionId, agentId), 'message');
    await this.#store.deleteKeys(
      ids.filter((id) => id >= from).map((id) => this.#keys.message(sessionId, agentId, id)),
    );
  }

  async createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    await this.#writable(sessionId);
    const key = this.#keys.multiAgent(sessionId, multiAgent.id);
    await this.#requireSession(sessionId);
    await this.#create(key, multiAgent, `Orchestrator ${multiAgent.id}`);
    this.#nextSeq.set(this.#keys.multiAgentDir(sessionId, multiAgent.id), 0);
  }

  async readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined> {
    return this.#read(this.#keys.multiAgent(sessionId, multiAgentId), parseMultiAgent);
  }

  async updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    await this.#writable(sessionId);
    await this.#replace(this.#keys.multiAgent(sessionId, multiAgent.id), multiAgent, `Orchestrator ${multiAgent.id}`);
  }

  async deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void> {
    await this.#writable(sessionId);
    const dir = this.#keys.multiAgentDir(sessionId, multiAgentId);
    await this.#store.deleteKeys(await this.#store.list(dir));
    this.#forget(dir);
  }

  async putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void> {
    const key = this.#keys.node(sessionId, multiAgentId, nodeId);
    const what = `Node entry ${nodeId} of orchestrator ${multiAgentId}`;
    await this.#writable(sessionId);
    if (this.#store.knows(key)) return this.#replace(key, entry, what);
    // After readNodeEntries, an entry we did not see is one another writer added: create strictly.
    if (this.#listedNodes.has(this.#keys.nodesDir(sessionId, multiAgentId))) return this.#create(key, entry, what);
    if (!(await this.#store.create(key, serializeSessionData(entry)))) await this.#replace(key, entry, what);
  }

  async readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>> {
    const dir = this.#keys.nodesDir(sessionId, multiAgentId);
    const keys = (await this.#store.list(dir)).filter((key) => nodeIdOfKey(key, dir) !== undefined);
    const entries = await mapLimit(
      keys,
      this.#concurrency,
      async (key) => [nodeIdOfKey(key, dir) as string, await this.#read(key, parseNodeEntry)] as const,
    );
    const out: Record<string, JsonObject> = {};
    for (const [nodeId, entry] of entries) if (entry !== undefined) out[nodeId] = entry;
    this.#listedNodes.add(dir);
    return out;
  }

  async appendTransitions(
    sessionId: string,
    multiAgentId: string,
    transitions: readonly NodeTransition[],
  ): Promise<void> {
    await this.#writable(sessionId);
    const dir = this.#keys.multiAgentDir(sessionId, multiAgentId);
    for (const transition of transitions) {
      const seq = checkIndex(transition.seq, 'transition seq');
      const expected = this.#nextSeq.get(dir);
      if (expected !== undefined && seq !== expected) {
        throw new SessionConflictError(
          `Transition ${seq} of orchestrator ${multiAgentId} is out of order (expected ${expected}).`,
          { location: this.#url(dir) },
        );
      }
      await this.#create(
        this.#keys.transition(sessionId, multiAgentId, seq),
        transition,
        `Transition ${seq} of orchestrator ${multiAgentId}`,
      );
      this.#nextSeq.set(dir, seq + 1);
    }
  }

  async readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]> {
    const dir = this.#keys.transitionsDir(sessionId, multiAgentId);
    const seqs = await this.#numbered(dir, 'transition');
    seqs.forEach((seq, i) => {
      if (seq !== i)
        this.#missing(
          this.#keys.transition(sessionId, multiAgentId, i),
          `transition ${i} of orchestrator ${multiAgentId}`,
          seq,
        );
    });
    const out = await mapLimit(seqs, this.#concurrency, async (seq) => {
      const key = this.#keys.transition(sessionId, multiAgentId, seq);
      return (
        (await this.#read(key, (text, location) => parseTransition(text, location, seq))) ??
        this.#missing(key, `transition ${seq}`)
      );
    });
    this.#nextSeq.set(this.#keys.multiAgentDir(sessionId, multiAgentId), out.length);
    return out;
  }

  /** Drops what this repository knew about the orchestrators under `dir` (after a delete). */
  #forget(dir: string): void {
    for (const key of [...this.#nextSeq.keys()]) if (key.startsWith(dir)) this.#nextSeq.delete(key);
    for (const key of [...this.#listedNodes]) if (key.startsWith(dir)) this.#listedNodes.delete(key);
  }

  /** The numbers `n` of the keys `<dir><stem>_<n>.json`, ascending. */
  async #numbered(dir: string, stem: string): Promise<number[]> {
    const ids: number[] = [];
    for (const key of await this.#store.list(dir)) {
      const id = numberedKey(key, dir, stem);
      if (id !== undefined) ids.push(id);
    }
    return ids.sort((a, b) => a - b);
  }

  #missing(key: string, what: string, nextStored?: number): never {
    const next = nextStored === undefined ? '' : ` (the next one stored is ${nextStored})`;
    throw new SessionCorruptError(
      `The session is missing ${what}: ${this.#url(key)} does not exist${next}. Restore that object from a backup, or delete the objects after it to truncate the history.`,
      {
        location: this.#url(key),
      },
    );
  }
}

function checkIndex(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new SessionNotFoundError(`Invalid ${what} ${JSON.stringify(value)}: use an integer >= 0.`);
  }
  return value;
}
