import { nowIso, type JsonObject, type Message, type MultiAgentSession, type NewTransition, type NodeResult, type NodeTransition, type SessionManager } from '@skein/core';
import type { SwarmMembers } from './swarm-members.js';
import { decodeState, encodeState, isFinishedDoc, type SwarmRunState } from './swarm-state.js';
import { committedTurns, decodeTask, encodeTask, encodeTurn, isRunEntry, TASK_ENTRY, turnEntryId, type SwarmTurn } from './swarm-turn.js';

/** An unfinished run found in the session: its state, node results, task and committed turns. */
export interface StoredRun {
  state: SwarmRunState;
  results: Record<string, NodeResult>;
  transitions: NodeTransition[];
  task: Message[];
  turns: SwarmTurn[];
}

/**
 * The swarm's persistence, as an event log: the task (once per run), one entry per finished turn
 * (the messages that node added, its handoff and its agent state), one result entry per node, the
 * append-only transition history, and a small state document whose turn count is the commit point.
 * Every write is proportional to one node's output. Without a session manager it keeps transitions only.
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

  /** True when runs are persisted. */
  get persistent(): boolean {
    return this.#manager !== undefined;
  }

  /** Opens the session; returns an unfinished run to resume, if any. */
  async open(members: SwarmMembers): Promise<StoredRun | undefined> {
    if (!this.#manager) return undefined;
    const session = await this.#manager.openMultiAgent(this.#id, 'swarm');
    const snapshot = await session.load();
    this.#session = session;
    this.#stored = snapshot !== undefined;
    if (!snapshot || isFinishedDoc(snapshot.state)) return undefined;
    const state = decodeState(snapshot.state);
    if (state.status !== 'executing' && state.status !== 'interrupted') return undefined;
    const taskEntry = snapshot.nodes[TASK_ENTRY];
    // Stopped between writing the state and the task: nothing ran yet, so the next invoke starts fresh.
    if (taskEntry === undefined && state.turns === 0) return undefined;
    const results: Record<string, NodeResult> = {};
    for (const [id, entry] of Object.entries(snapshot.nodes)) {
      if (isRunEntry(id)) continue;
      const result = entry as unknown as NodeResult;
      if (typeof result.nodeId === 'string' && members.has(result.nodeId)) results[result.nodeId] = result;
    }
    const task = decodeTask(taskEntry);
    const turns = committedTurns(snapshot.nodes, state.turns);
    this.transitions = [...snapshot.transitions];
    return { state, results, transitions: snapshot.transitions, task, turns };
  }

  /** Forgets a finished run, so the next one starts fresh. */
  async clear(): Promise<void> {
    this.transitions = [];
    if (this.#session && this.#stored) await this.#session.clear();
    this.#stored = false;
  }

  /** Writes the small run state (the commit point of the turns written before it). */
  async saveState(state: SwarmRunState): Promise<void> {
    if (!this.#session) return;
    await this.#session.saveState(encodeState(state));
    this.#stored = true;
  }

  /** Stores the run's task, once per run (after the first `saveState`). */
  async saveTask(inputHistory: readonly Message[]): Promise<void> {
    await this.#session?.saveNode(TASK_ENTRY, encodeTask(inputHistory));
  }

  /** Stores one finished turn; it counts once a state with `turns > turn.seq` is saved. */
  async saveTurn(turn: SwarmTurn): Promise<void> {
    await this.#session?.saveNode(turnEntryId(turn.seq), encodeTurn(turn));
  }

  /** Stores a node's latest result (without the in-process agent result object). */
  async saveNode(key: string, result: NodeResult): Promise<void> {
    if (!this.#session) return;
    const { result: _live, ...entry } = result;
    await this.#session.saveNode(key, entry as unknown as JsonObject);
  }

  /** Appends a transition to the history (and the session). */
  async record(transition: NewTransition): Promise<NodeTransition> {
    const full = this.#session ? await this.#session.appendTransition(transition) : { seq: this.transitions.length, ...transition, at: nowIso() };
    this.transitions.push(full);
    return full;
  }
}
