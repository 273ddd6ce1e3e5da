import type { AgentHandle } from '../../agent/agent-handle.js';
import type { JsonObject } from '../../types/json.js';
import { OrchestratorHistory } from '../history/history-reader.js';
import type { HistoryOptions } from '../history/history-types.js';
import { mapLimit } from '../map-limit.js';
import type { MultiAgentSession, MultiAgentSnapshot } from '../multi-agent-session.js';
import type { AgentCheckpoint } from '../stored-history.js';
import { numberTransitions, type NewTransition } from '../run-tail.js';
import type { SessionManager } from '../session-manager.js';
import type { SessionRepository } from '../session-repository.js';
import type { NodeTransition } from '../session-types.js';

/** What one step of a run stores (see {@link RunJournal.commit}); entries and transitions staged before it go with it. */
export interface JournalStep {
  /** The orchestrator's state document, the step's commit point: made only when a session stores it. */
  state: () => JsonObject;
  /** A node entry the step writes (it replaces that node's earlier entry), besides those staged. */
  node?: { id: string; entry: JsonObject } | undefined;
  /** The member agent whose held writes go with the step. */
  agent?: AgentHandle | undefined;
  /** The step's transitions, after those staged. */
  transitions?: readonly NewTransition[] | undefined;
}

/** Member agents restored (or stored) at once when a run starts. */
const ATTACH_CONCURRENCY = 8;

/**
 * An orchestrator's run journal (Graph, Swarm): the one place a run's step goes. `commit(step)` is the
 * one call: with a session manager it stores the step through the orchestrator's session
 * (`MultiAgentSession.commitRunStep`: node entries, member agents' held writes and the previous step's
 * transitions in one round, then the state document, the commit point, then the step's transitions),
 * and without one it only numbers the transitions. The orchestrator says what its step holds, through
 * its own codec; everything else (staging, numbering, the run document, opening, clearing, history
 * for time travel, member agents) is here.
 */
export class RunJournal {
  /** The orchestrator's id (its session stores the run under it). */
  readonly id: string;
  /** The orchestrator's kind (`graph`, `swarm`). */
  readonly type: string;
  /** The transitions of the current run, in the order they were committed. */
  transitions: NodeTransition[] = [];
  readonly #manager: SessionManager | undefined;
  readonly #history: HistoryOptions | undefined;
  #session: Promise<MultiAgentSession> | undefined;
  #open: MultiAgentSession | undefined;
  /** Whether the session holds a run of this orchestrator (loaded or written). */
  #stored = false;
  #staged: NewTransition[] = [];
  #entries = new Map<string, JsonObject>();
  #runDocument: JsonObject | undefined;
  /** Without a session: the number of the next transition. */
  #next = 0;
  #membersAttached = false;

  constructor(manager: SessionManager | undefined, id: string, type: string, history?: HistoryOptions) {
    this.#manager = manager;
    this.id = id;
    this.type = type;
    this.#history = history;
  }

  /** True when runs are stored (a session manager was given). */
  get persistent(): boolean {
    return this.#manager !== undefined;
  }

  /** The session's id (`undefined` without a session manager). */
  get sessionId(): string | undefined {
    return this.#manager?.sessionId;
  }

  /** The orchestrator's session, opened at the first call (again after a failure); `undefined` without a session manager. */
  async session(): Promise<MultiAgentSession | undefined> {
    const manager = this.#manager;
    if (!manager) return undefined;
    this.#session ??= manager.openMultiAgent(this.id, this.type).then(
      (session) => {
        session.keepHistory(this.#history);
        this.#open = session;
        return session;
      },
      (error: unknown) => {
        this.#session = undefined;
        throw error;
      },
    );
    return this.#session;
  }

  /** The store the session is in (a fork goes to the same store), once the session is open. */
  get repository(): SessionRepository | undefined {
    return this.#open?.repository;
  }

  /** The orchestrator's history in its session (read-only); `undefined` without a session manager. */
  async history(): Promise<OrchestratorHistory | undefined> {
    const session = await this.session();
    return session && new OrchestratorHistory(session.repository, session.sessionId, this.id);
  }

  /** Reads the stored run (`undefined`: none, or no session manager). */
  async load(): Promise<MultiAgentSnapshot | undefined> {
    const session = await this.session();
    const snapshot = await session?.load();
    this.#stored = snapshot !== undefined;
    return snapshot;
  }

  /** Appends the committed transitions a crash cut from `snapshot` (a run `commit` wrote); resolves with them all, which become the run's. */
  async repairTail(snapshot: MultiAgentSnapshot): Promise<NodeTransition[]> {
    const session = (await this.session()) as MultiAgentSession;
    this.transitions = await session.repairTail(snapshot);
    return [...this.transitions];
  }

  /** Without a session: numbers the next transitions from `next` on (a run kept in memory goes on). */
  numberFrom(next: number): void {
    this.#next = next;
  }

  /** Queues a transition: the next `commit` commits it, after it the transitions of its own step. */
  stage(transition: NewTransition): void {
    this.#staged.push(transition);
  }

  /** Stages a node entry for the next `commit` (a later one of the same id replaces it); only with a session. */
  stageEntry(id: string, entry: () => JsonObject): void {
    if (this.#manager) this.#entries.set(id, entry());
  }

  /** Stages the run's own document (a graph's shape, a swarm's members) for the next `commit`, the run's first. */
  stageRun(doc: () => JsonObject): void {
    if (this.#manager) this.#runDocument = doc();
  }

  /**
   * Stores one step and resolves with its transitions (the staged ones first), numbered. Everything
   * the step holds is taken now, when it is called (the state document is made only here, and only
   * with a session), and the step is queued behind the ones called before it. A crash before its
   * state document is stored leaves the step undone; one after it leaves at most the step's
   * transitions to append (`repairTail`).
   */
  commit(step: JournalStep): Promise<NodeTransition[]> {
    const staged = this.#staged;
    this.#staged = [];
    const transitions = step.transitions ? [...staged, ...step.transitions] : staged;
    if (!this.#manager) {
      const numbered = numberTransitions(this.#next, transitions);
      this.#next += numbered.length;
      this.transitions.push(...numbered);
      return Promise.resolve(numbered);
    }
    const nodes = [...this.#entries].map(([id, entry]) => ({ id, entry }));
    this.#entries.clear();
    if (step.node) nodes.push(step.node);
    const run = this.#runDocument;
    this.#runDocument = undefined;
    const write = {
      ...(nodes.length > 0 ? { nodes } : {}),
      ...(step.agent ? { agents: [step.agent] } : {}),
      state: step.state(),
      transitions,
      ...(run ? { run } : {}),
    };
    const open = this.#open;
    const stored = open
      ? open.commitRunStep(write)
      : this.session().then((s) => (s as MultiAgentSession).commitRunStep(write));
    return stored.then((committed) => {
      this.#stored = true;
      this.transitions.push(...committed);
      return committed;
    });
  }

  /** Waits until the last step's transitions are stored: call at the end of a run. */
  async settle(): Promise<void> {
    await this.#open?.settle();
  }

  /** Forgets the run, so the next one starts fresh: the stored one is cleared (its history is kept, marked closed). */
  async clear(): Promise<void> {
    this.transitions = [];
    this.#staged = [];
    this.#entries.clear();
    this.#runDocument = undefined;
    this.#next = 0;
    if (this.#stored) await this.#open?.clear();
    this.#stored = false;
  }

  /** Whether `attachMembers` ran. */
  get membersAttached(): boolean {
    return this.#membersAttached;
  }

  /**
   * Restores each member agent from the session (or stores it there when new), up to 8 at once; its
   * later writes wait for the step that names it. A member with a checkpoint goes back to it.
   */
  async attachMembers(
    members: readonly { key: string; agent: AgentHandle }[],
    checkpoints: ReadonlyMap<string, AgentCheckpoint> = new Map(),
  ): Promise<void> {
    const session = (await this.session()) as MultiAgentSession;
    // Several at once: a store's round trips overlap, and SQLite commits the new agents together.
    await mapLimit(members, ATTACH_CONCURRENCY, ({ key, agent }) =>
      session.attachAgent(agent, key, { restore: true, checkpoint: checkpoints.get(key), deferWrites: true }),
    );
    this.#membersAttached = true;
  }

  /** Stores a member agent's current history from scratch (after `resetOnRevisit`); nothing without a session. */
  async resetAgent(agent: AgentHandle): Promise<void> {
    await this.#open?.resetAgent(agent);
  }

  /** Where a member agent's stored history stands now (committed with the node when it starts). */
  checkpointOf(agent: AgentHandle): AgentCheckpoint | undefined {
    return this.#open?.checkpointOf(agent);
  }
}
