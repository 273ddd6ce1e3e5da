import type { Agent } from '../agent/agent.js';
import { AfterInvocationEvent, MessageAddedEvent } from '../hooks/events.js';
import type { JsonObject } from '../types/json.js';
import { AgentPersistence } from './agent-persistence.js';
import { checkSessionId } from './session-codec.js';
import type { SessionRepository } from './session-repository.js';
import { nowIso, type NodeTransition } from './session-types.js';

/** What an orchestrator finds when it reopens its session. */
export interface MultiAgentSnapshot {
  /** The orchestrator's own state, as last saved. */
  state: JsonObject;
  /** Node entries by node id. */
  nodes: Record<string, JsonObject>;
  /** The node-transition history, in order. */
  transitions: NodeTransition[];
}

/** A transition to record; `seq` and `at` are filled in. */
export type NewTransition = Omit<NodeTransition, 'seq' | 'at'>;

/**
 * An orchestrator's handle on its session: its small state document, one entry per node (written
 * when that node finishes, so persisting a node costs in proportion to its own output), the
 * append-only transition history, and the messages and state of its member agents.
 */
export class MultiAgentSession {
  readonly #repo: SessionRepository;
  readonly sessionId: string;
  readonly multiAgentId: string;
  readonly type: string;
  #exists = false;
  #createdAt = nowIso();
  #seq = 0;
  readonly #agents = new Map<Agent, AgentPersistence>();

  constructor(repo: SessionRepository, sessionId: string, multiAgentId: string, type: string) {
    checkSessionId(multiAgentId, 'orchestrator id');
    this.#repo = repo;
    this.sessionId = sessionId;
    this.multiAgentId = multiAgentId;
    this.type = type;
  }

  /** Reads what was stored, or `undefined` for a new orchestrator. */
  async load(): Promise<MultiAgentSnapshot | undefined> {
    const stored = await this.#repo.readMultiAgent(this.sessionId, this.multiAgentId);
    if (!stored) return undefined;
    this.#exists = true;
    this.#createdAt = stored.created_at;
    const [nodes, transitions] = await Promise.all([
      this.#repo.readNodeEntries(this.sessionId, this.multiAgentId),
      this.#repo.readTransitions(this.sessionId, this.multiAgentId),
    ]);
    this.#seq = transitions.length;
    return { state: stored.state, nodes, transitions };
  }

  /** Writes the orchestrator's state document (keep it small: per-node data goes to `saveNode`). */
  async saveState(state: JsonObject): Promise<void> {
    const doc = { id: this.multiAgentId, type: this.type, state, created_at: this.#createdAt, updated_at: nowIso() };
    if (this.#exists) await this.#repo.updateMultiAgent(this.sessionId, doc);
    else {
      await this.#repo.createMultiAgent(this.sessionId, doc);
      this.#exists = true;
    }
  }

  /** Writes one node's entry. */
  async saveNode(nodeId: string, entry: JsonObject): Promise<void> {
    await this.#repo.putNodeEntry(this.sessionId, this.multiAgentId, nodeId, entry);
  }

  /** Appends one transition to the history and returns it with its `seq` and time. */
  async appendTransition(transition: NewTransition): Promise<NodeTransition> {
    const full: NodeTransition = { seq: this.#seq, ...transition, at: nowIso() };
    await this.#repo.appendTransitions(this.sessionId, this.multiAgentId, [full]);
    this.#seq++;
    return full;
  }

  /**
   * Persists a member agent under `<orchestrator id>.<key>`: restores what was stored (when `restore`),
   * then stores each message it adds and its state after each invocation.
   */
  async attachAgent(agent: Agent, key: string, options: { restore: boolean }): Promise<void> {
    checkSessionId(key, 'node id');
    let persistence = this.#agents.get(agent);
    if (!persistence) {
      persistence = new AgentPersistence(this.#repo, this.sessionId, `${this.multiAgentId}.${key}`);
      this.#agents.set(agent, persistence);
      const p = persistence;
      agent.hooks.addCallback(MessageAddedEvent, (event) => p.append(event.message));
      agent.hooks.addCallback(AfterInvocationEvent, (event) => p.sync(event.agent));
    }
    if (options.restore) await persistence.restore(agent);
    else await persistence.reset(agent);
  }

  /** Stores a member agent's current history from scratch (after `resetOnRevisit` or a fresh start). */
  async resetAgent(agent: Agent): Promise<void> {
    await this.#agents.get(agent)?.reset(agent);
  }

  /** Removes the orchestrator's stored state, nodes and transitions: the next run starts fresh. */
  async clear(): Promise<void> {
    await this.#repo.deleteMultiAgent(this.sessionId, this.multiAgentId);
    this.#exists = false;
    this.#seq = 0;
    this.#createdAt = nowIso();
  }
}
