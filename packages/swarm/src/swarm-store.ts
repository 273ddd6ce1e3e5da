import {
  isUnfinished,
  OrchestratorHistory,
  type HistoryOptions,
  type SessionRepository,
  numberTransitions,
  type JsonObject,
  type Message,
  type MultiAgentSession,
  type NewTransition,
  type NodeResult,
  type NodeTransition,
  type SessionManager,
} from '@skein/core';
import type { SwarmMembers } from './swarm-members.js';
import { readStoredRun } from './stored-run.js';
import { decodeState, encodeState, isFinishedDoc, type SwarmRunState } from './swarm-state.js';
import { decodeTask, encodeTask, encodeTurn, TASK_ENTRY, turnEntryId, type SwarmTurn } from './swarm-turn.js';

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
  readonly #history: HistoryOptions | undefined;
  /** The member ids: the run document (stored once per run, beside the swarm's record) lists them for readers such as the inspector. */
  readonly #members: readonly string[];
  /** The run document, for the next `saveState` (the run's first). */
  #runDocument: JsonObject | undefined;
  #session: MultiAgentSession | undefined;
  #stored = false;
  #staged: NewTransition[] = [];
  /** Entries (the task, turns, node results) that the next `saveState` stores in its round, by entry id. */
  #entries = new Map<string, JsonObject>();
  /** By turn seq: the length of `nodeHistory` when that turn was stored (`undefined`: a run resumed from an older version, whose state keeps it whole). */
  #historyAt: number[] | undefined = [];
  transitions: NodeTransition[] = [];

  constructor(manager: SessionManager | undefined, id: string, members: readonly string[], history?: HistoryOptions) {
    this.#manager = manager;
    this.#id = id;
    this.#members = members;
    this.#history = history;
  }

  /** The swarm's history in its session (read-only); `undefined` without a session manager. */
  async history(): Promise<
    { history: OrchestratorHistory; repository: SessionRepository; sessionId: string } | undefined
  > {
    const session = await this.#open();
    if (!session) return undefined;
    return {
      history: new OrchestratorHistory(session.repository, session.sessionId, this.#id),
      repository: session.repository,
      sessionId: session.sessionId,
    };
  }

  async #open(): Promise<MultiAgentSession | undefined> {
    if (!this.#manager) return undefined;
    if (!this.#session) {
      this.#session = await this.#manager.openMultiAgent(this.#id, 'swarm');
      this.#session.keepHistory(this.#history);
    }
    return this.#session;
  }

  /** The session's id (`undefined` without a session manager). */
  get sessionId(): string | undefined {
    return this.#manager?.sessionId;
  }

  /** True when runs are persisted. */
  get persistent(): boolean {
    return this.#manager !== undefined;
  }

  /** Opens the session; returns an unfinished run to resume, if any. */
  async open(members: SwarmMembers): Promise<StoredRun | undefined> {
    const session = await this.#open();
    if (!session) return undefined;
    const snapshot = await session.load();
    this.#stored = snapshot !== undefined;
    if (!snapshot || isFinishedDoc(snapshot.state)) return undefined;
    if (!isUnfinished(decodeState(snapshot.state).status)) return undefined;
    const stored = readStoredRun(snapshot.state, snapshot.nodes, members);
    // Stopped between writing the state and the task: nothing ran yet, so the next invoke starts fresh.
    if (stored.task === undefined && stored.state.turns === 0) return undefined;
    const task = stored.task ?? decodeTask(undefined);
    this.#keepHistoryOf(stored.turns);
    const transitions = await session.repairTail(snapshot);
    this.transitions = [...transitions];
    return { ...stored, task, transitions };
  }

  /** The stored run when it finished (`completed` or `failed`), else `undefined`; appends the last transitions a crash cut (the only write). */
  async finished(members: SwarmMembers): Promise<StoredRun | undefined> {
    const session = await this.#open();
    if (!session) return undefined;
    const snapshot = await session.load();
    if (!snapshot || !isFinishedDoc(snapshot.state)) return undefined;
    const stored = readStoredRun(snapshot.state, snapshot.nodes, members);
    // A writer killed after committing the end of the run may not have appended its last transitions.
    const transitions = await session.repairTail(snapshot);
    return { ...stored, task: stored.task ?? [], transitions };
  }

  /** Where `nodeHistory` stood at each committed turn (turns of older versions hold none: the state documents then keep it whole). */
  #keepHistoryOf(turns: readonly SwarmTurn[]): void {
    let n = 0;
    this.#historyAt = turns.every((t) => t.history) ? turns.map((t) => (n += t.history?.length ?? 0)) : undefined;
  }

  /** Forgets a finished run, so the next one starts fresh. */
  async clear(): Promise<void> {
    this.transitions = [];
    this.#staged = [];
    this.#entries.clear();
    this.#historyAt = [];
    if (this.#session && this.#stored) await this.#session.clear();
    this.#stored = false;
  }

  /** Queues a transition; the next `saveState` commits it, then appends it to the history. */
  stage(transition: NewTransition): void {
    this.#staged.push(transition);
  }

  /**
   * Writes one step (`MultiAgentSession.commitRunStep`): the entries staged since the last step (task,
   * turn, node results) and the previous step's transitions in one round, then the small run state —
   * the commit point of those entries and of the staged transitions, which it names (how many are
   * committed) and carries — then, without waiting, those transitions. A crash before the state leaves
   * the step undone (nothing of it in the history); a crash after it leaves transitions that `open`
   * appends from the state: the history never doubles or loses a step. Resolves with the step's
   * transitions, numbered.
   */
  async saveState(state: SwarmRunState): Promise<NodeTransition[]> {
    const staged = this.#staged;
    this.#staged = [];
    if (!this.#session) {
      const local = numberTransitions(this.transitions.length, staged);
      this.transitions.push(...local);
      return local;
    }
    const nodes = [...this.#entries].map(([id, entry]) => ({ id, entry }));
    this.#entries.clear();
    const run = this.#runDocument;
    this.#runDocument = undefined;
    const stored = await this.#session.commitRunStep({
      nodes,
      state: encodeState(state, this.#historyFrom(state.turns)),
      transitions: staged,
      ...(run ? { run } : {}),
    });
    this.#stored = true;
    this.transitions.push(...stored);
    return stored;
  }

  /** Waits until the last step's transitions are stored: call at the end of a run. */
  async settle(): Promise<void> {
    await this.#session?.settle();
  }

  /**
   * Stages the run's task, once per run, before its first `saveState`, which creates the run and then
   * stores the task (and the run document with the member ids).
   */
  saveTask(inputHistory: readonly Message[]): void {
    if (!this.#session) return;
    this.#entries.set(TASK_ENTRY, encodeTask(inputHistory));
    this.#runDocument = { members: [...this.#members] };
  }

  /** Stages one finished turn: the next `saveState` stores it and commits it (`turns > turn.seq`). */
  saveTurn(turn: SwarmTurn, nodeHistory: readonly string[] = []): void {
    if (!this.#session) return;
    const at = this.#historyAt;
    if (!at) return void this.#entries.set(turnEntryId(turn.seq), encodeTurn(turn));
    const from = turn.seq > 0 ? (at[turn.seq - 1] ?? 0) : 0;
    at[turn.seq] = nodeHistory.length;
    this.#entries.set(turnEntryId(turn.seq), encodeTurn({ ...turn, history: nodeHistory.slice(from) }));
  }

  /**
   * Where the state document's `nodeHistory` starts: after the turns before the last committed one
   * (so it holds the last turn's ids and those since, and stays small), or 0 while a run keeps it whole.
   */
  #historyFrom(turns: number): number {
    return turns >= 2 ? (this.#historyAt?.[turns - 2] ?? 0) : 0;
  }

  /** Stages a node's latest result (without the in-process agent result object) for the next `saveState`. */
  saveNode(key: string, result: NodeResult): void {
    if (!this.#session) return;
    const { result: _live, ...entry } = result;
    this.#entries.set(key, JSON.parse(JSON.stringify(entry)) as JsonObject);
  }
}
