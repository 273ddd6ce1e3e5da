import { nowIso, type Agent, type JsonObject, type MultiAgentSession, type NewTransition, type NodeResult, type NodeTransition, type SessionManager } from '@skein/core';
import type { SwarmMembers } from './swarm-members.js';
import { decodeState, encodeState, type SwarmRunState } from './swarm-state.js';

/** What a swarm finds in its session when it opens it. */
export interface StoredRun {
  state: SwarmRunState;
  results: Record<string, NodeResult>;
  transitions: NodeTransition[];
}

/**
 * The swarm's persistence: its run state, one entry per node, the transition history and every
 * member's messages and state, in a session when one is given (and in memory only otherwise).
 */
export class SwarmStore {
  readonly #manager: SessionManager | undefined;
  readonly #id: string;
  #session: MultiAgentSession | undefined;
  #stored = false;
  transitions: NodeTransition[] = [];

  constructor(manager: SessionManager | undefined, id: string) {
    this.#manager = manager;
    this.#id = id;
  }

  /** Opens the session and attaches the members; returns an unfinished run to resume, if any. */
  async open(members: SwarmMembers): Promise<StoredRun | undefined> {
    if (!this.#manager) return undefined;
    const session = await this.#manager.openMultiAgent(this.#id, 'swarm');
    const snapshot = await session.load();
    this.#stored = snapshot !== undefined;
    let run: StoredRun | undefined;
    if (snapshot) {
      const state = decodeState(snapshot.state);
      if (state.status === 'executing' || state.status === 'interrupted') {
        const results: Record<string, NodeResult> = {};
        for (const entry of Object.values(snapshot.nodes)) {
          const result = entry as unknown as NodeResult;
          if (typeof result.nodeId === 'string' && members.has(result.nodeId)) results[result.nodeId] = result;
        }
        run = { state, results, transitions: snapshot.transitions };
        this.transitions = [...snapshot.transitions];
      }
    }
    for (const id of members.ids) await session.attachAgent(members.agent(id), members.key(id), { restore: run !== undefined });
    this.#session = session;
    return run;
  }

  /** Forgets a finished run, so the next one starts fresh. */
  async clear(): Promise<void> {
    this.transitions = [];
    if (this.#session && this.#stored) await this.#session.clear();
    this.#stored = false;
  }

  async saveState(state: SwarmRunState): Promise<void> {
    if (!this.#session) return;
    await this.#session.saveState(encodeState(state));
    this.#stored = true;
  }

  /** Stores a node's latest result (without the in-process agent result object). */
  async saveNode(key: string, result: NodeResult): Promise<void> {
    if (!this.#session) return;
    const { result: _live, ...entry } = result;
    await this.#session.saveNode(key, entry as unknown as JsonObject);
  }

  /** Stores a member's history from scratch (it was just given a new starting history). */
  async resetAgent(agent: Agent): Promise<void> {
    await this.#session?.resetAgent(agent);
  }

  /** Appends a transition to the history (and the session). */
  async record(transition: NewTransition): Promise<NodeTransition> {
    const full = this.#session ? await this.#session.appendTransition(transition) : { seq: this.transitions.length, ...transition, at: nowIso() };
    this.transitions.push(full);
    return full;
  }
}
