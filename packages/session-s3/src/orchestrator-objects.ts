/**
 * The orchestrator objects of an S3 session (a Graph's or Swarm's state document, its node entries,
 * its numbered transitions), with what this writer knows of them: the next transition number, and
 * which node directories it has listed (an entry it did not see there is another writer's, created
 * strictly). Writes hold the session's lease (`writable`) like every other write of the repository.
 */
import {
  mapLimit,
  serializeSessionData,
  SessionConflictError,
  type JsonObject,
  type NodeTransition,
  type OrchestratorRecords,
  type SessionMultiAgent,
} from '@skein/core';
import { records } from './documents.js';
import { nodeIdOfKey, type S3Keys } from './keys.js';
import type { S3ObjectStore } from './object-store.js';
import type { SessionObjects } from './session-objects.js';

/** The orchestrator half of `S3SessionRepository`. */
export class OrchestratorObjects implements OrchestratorRecords {
  readonly #store: S3ObjectStore;
  readonly #keys: S3Keys;
  readonly #objects: SessionObjects;
  readonly #concurrency: number;
  readonly #writable: (sessionId: string) => Promise<void>;
  /** Next transition seq per orchestrator dir, when known from a read or an append. */
  readonly #nextSeq = new Map<string, number>();
  /** Node dirs this repository has listed (so it knows every entry that existed then). */
  readonly #listedNodes = new Set<string>();

  constructor(
    store: S3ObjectStore,
    keys: S3Keys,
    objects: SessionObjects,
    options: { concurrency: number; writable: (sessionId: string) => Promise<void> },
  ) {
    this.#store = store;
    this.#keys = keys;
    this.#objects = objects;
    this.#concurrency = options.concurrency;
    this.#writable = options.writable;
  }

  async createMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    await this.#writable(sessionId);
    const key = this.#keys.multiAgent(sessionId, multiAgent.id);
    await this.#objects.requireSession(sessionId);
    await this.#objects.create(key, multiAgent, `Orchestrator ${multiAgent.id}`);
    this.#nextSeq.set(this.#keys.multiAgentDir(sessionId, multiAgent.id), 0);
  }

  async readMultiAgent(sessionId: string, multiAgentId: string): Promise<SessionMultiAgent | undefined> {
    return this.#objects.read(this.#keys.multiAgent(sessionId, multiAgentId), records.multiAgent);
  }

  async updateMultiAgent(sessionId: string, multiAgent: SessionMultiAgent): Promise<void> {
    await this.#writable(sessionId);
    await this.#objects.replace(
      this.#keys.multiAgent(sessionId, multiAgent.id),
      multiAgent,
      `Orchestrator ${multiAgent.id}`,
    );
  }

  async deleteMultiAgent(sessionId: string, multiAgentId: string): Promise<void> {
    await this.#writable(sessionId);
    const dir = this.#keys.multiAgentDir(sessionId, multiAgentId);
    await this.#store.deleteKeys(await this.#store.list(dir));
    this.forget(dir);
  }

  async putNodeEntry(sessionId: string, multiAgentId: string, nodeId: string, entry: JsonObject): Promise<void> {
    const key = this.#keys.node(sessionId, multiAgentId, nodeId);
    const what = `Node entry ${nodeId} of orchestrator ${multiAgentId}`;
    await this.#writable(sessionId);
    if (this.#store.knows(key)) return this.#objects.replace(key, entry, what);
    // After readNodeEntries, an entry we did not see is one another writer added: create strictly.
    if (this.#listedNodes.has(this.#keys.nodesDir(sessionId, multiAgentId)))
      return this.#objects.create(key, entry, what);
    if (!(await this.#store.create(key, serializeSessionData(entry)))) await this.#objects.replace(key, entry, what);
  }

  async readNodeEntries(sessionId: string, multiAgentId: string): Promise<Record<string, JsonObject>> {
    const dir = this.#keys.nodesDir(sessionId, multiAgentId);
    const keys = (await this.#store.list(dir)).filter((key) => nodeIdOfKey(key, dir) !== undefined);
    const entries = await mapLimit(
      keys,
      this.#concurrency,
      async (key) => [nodeIdOfKey(key, dir) as string, await this.#objects.read(key, records.nodeEntry)] as const,
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
      const seq = transition.seq;
      const expected = this.#nextSeq.get(dir);
      if (expected !== undefined && seq !== expected) {
        throw new SessionConflictError(
          `Transition ${seq} of orchestrator ${multiAgentId} is out of order (expected ${expected}).`,
          { location: this.#objects.url(dir) },
        );
      }
      await this.#objects.create(
        this.#keys.transition(sessionId, multiAgentId, seq),
        transition,
        `Transition ${seq} of orchestrator ${multiAgentId}`,
      );
      this.#nextSeq.set(dir, seq + 1);
    }
  }

  async readTransitions(sessionId: string, multiAgentId: string): Promise<NodeTransition[]> {
    const dir = this.#keys.transitionsDir(sessionId, multiAgentId);
    const seqs = await this.#objects.numbered(dir, 'transition');
    seqs.forEach((seq, i) => {
      if (seq !== i)
        this.#objects.missing(
          this.#keys.transition(sessionId, multiAgentId, i),
          `transition ${i} of orchestrator ${multiAgentId}`,
          seq,
        );
    });
    const out = await mapLimit(seqs, this.#concurrency, async (seq) => {
      const key = this.#keys.transition(sessionId, multiAgentId, seq);
      return (
        (await this.#objects.read(key, (text, location) => records.transition(text, location, seq))) ??
        this.#objects.missing(key, `transition ${seq}`)
      );
    });
    this.#nextSeq.set(this.#keys.multiAgentDir(sessionId, multiAgentId), out.length);
    return out;
  }

  /** Drops what this repository knew about the orchestrators of a session deleted (`dir`: its key prefix). */
  forget(dir: string): void {
    for (const key of [...this.#nextSeq.keys()]) if (key.startsWith(dir)) this.#nextSeq.delete(key);
    for (const key of [...this.#listedNodes]) if (key.startsWith(dir)) this.#listedNodes.delete(key);
  }
}
