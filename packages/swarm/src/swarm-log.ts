import {
  isUnfinished,
  type JsonObject,
  type Message,
  type NodeResult,
  type NodeTransition,
  type RunJournal,
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
 * The swarm's part of its run journal, an event log: the task (once per run), one entry per finished
 * turn (the messages that node added, its handoff and its agent state), one result entry per node,
 * and a small state document whose turn count is the commit point (core's journal stores them, with
 * the transitions, a step at a time). Every write is proportional to one node's output. Without a
 * session manager nothing is staged.
 */
export class SwarmLog {
  /** Where the swarm's steps go. */
  readonly journal: RunJournal;
  /** The member ids: the run document (stored once per run, beside the swarm's record) lists them for readers such as the inspector. */
  readonly #members: readonly string[];
  /** By turn seq: the length of `nodeHistory` when that turn was stored (`undefined`: a run resumed from an older version, whose state keeps it whole). */
  #historyAt: number[] | undefined = [];

  constructor(journal: RunJournal, members: readonly string[]) {
    this.journal = journal;
    this.#members = members;
  }

  /** Opens the session; returns an unfinished run to resume, if any. */
  async open(members: SwarmMembers): Promise<StoredRun | undefined> {
    const snapshot = await this.journal.load();
    if (!snapshot || isFinishedDoc(snapshot.state)) return undefined;
    if (!isUnfinished(decodeState(snapshot.state).status)) return undefined;
    const stored = readStoredRun(snapshot.state, snapshot.nodes, members);
    // Stopped between writing the state and the task: nothing ran yet, so the next invoke starts fresh.
    if (stored.task === undefined && stored.state.turns === 0) return undefined;
    const task = stored.task ?? decodeTask(undefined);
    this.#keepHistoryOf(stored.turns);
    const transitions = await this.journal.repairTail(snapshot);
    return { ...stored, task, transitions };
  }

  /** The stored run when it finished (`completed` or `failed`), else `undefined`; appends the last transitions a crash cut (the only write). */
  async finished(members: SwarmMembers): Promise<StoredRun | undefined> {
    const snapshot = await this.journal.load();
    if (!snapshot || !isFinishedDoc(snapshot.state)) return undefined;
    const stored = readStoredRun(snapshot.state, snapshot.nodes, members);
    // A writer killed after committing the end of the run may not have appended its last transitions.
    const transitions = await this.journal.repairTail(snapshot);
    return { ...stored, task: stored.task ?? [], transitions };
  }

  /** Where `nodeHistory` stood at each committed turn (turns of older versions hold none: the state documents then keep it whole). */
  #keepHistoryOf(turns: readonly SwarmTurn[]): void {
    let n = 0;
    this.#historyAt = turns.every((t) => t.history) ? turns.map((t) => (n += t.history?.length ?? 0)) : undefined;
  }

  /** Forgets a finished run, so the next one starts fresh. */
  async clear(): Promise<void> {
    this.#historyAt = [];
    await this.journal.clear();
  }

  /**
   * Stages the run's task, once per run, before its first step, which creates the run and then
   * stores the task (and the run document with the member ids).
   */
  saveTask(inputHistory: readonly Message[]): void {
    this.journal.stageEntry(TASK_ENTRY, () => encodeTask(inputHistory));
    this.journal.stageRun(() => ({ members: [...this.#members] }));
  }

  /** Stages one finished turn: the next step stores it and commits it (`turns > turn.seq`). */
  saveTurn(turn: SwarmTurn, nodeHistory: readonly string[] = []): void {
    if (!this.journal.persistent) return;
    const at = this.#historyAt;
    if (!at) return this.journal.stageEntry(turnEntryId(turn.seq), () => encodeTurn(turn));
    const from = turn.seq > 0 ? (at[turn.seq - 1] ?? 0) : 0;
    at[turn.seq] = nodeHistory.length;
    this.journal.stageEntry(turnEntryId(turn.seq), () => encodeTurn({ ...turn, history: nodeHistory.slice(from) }));
  }

  /** Stages a node's latest result (without the in-process agent result object) for the next step. */
  saveNode(key: string, result: NodeResult): void {
    const { result: _live, ...entry } = result;
    this.journal.stageEntry(key, () => JSON.parse(JSON.stringify(entry)) as JsonObject);
  }

  /**
   * The state document of `state`, the step's commit point: its `nodeHistory` starts after the turns
   * before the last committed one (so it holds the last turn's ids and those since, and stays small),
   * or at 0 while a run keeps it whole.
   */
  document(state: SwarmRunState): JsonObject {
    const turns = state.turns;
    return encodeState(state, turns >= 2 ? (this.#historyAt?.[turns - 2] ?? 0) : 0);
  }
}
