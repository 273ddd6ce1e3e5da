import {
  SessionCorruptError,
  isAgent,
  type Agent,
  type AgentCheckpoint,
  isUnfinished,
  mapLimit,
  restoreInterruptState,
  type Interrupt,
  type JsonObject,
  type MultiAgentSession,
  type MultiAgentSnapshot,
  type NewTransition,
  type NodeTransition,
  OrchestratorHistory,
  type SessionManager,
  type SessionRepository,
} from '@skein/core';
import type { GraphConfig } from './graph-types.js';
import { requeueRunning, restoreRunState, type RunState } from './run-state.js';
import { storedRunProblem } from './stored-run-check.js';

/** Node agents restored (or stored) at once when a run starts. */
const ATTACH_CONCURRENCY = 8;

/**
 * A graph's handle on its session: what a graph step contains, written through core's run protocol
 * (`MultiAgentSession.commitRunStep`: one write queue, transitions numbered there, the state
 * document's envelope and the repair of the transitions a crash cut). Each node's result goes to its
 * own entry so that persisting a node costs in proportion to that node's output.
 */
export class GraphSession {
  readonly #session: MultiAgentSession;
  readonly #config: GraphConfig;
  #attached = false;

  private constructor(session: MultiAgentSession, config: GraphConfig) {
    this.#session = session;
    this.#config = config;
  }

  /** The session's id. */
  get sessionId(): string {
    return this.#session.sessionId;
  }

  /** Opens the session of `config.id` through `sessionManager`. */
  static async open(sessionManager: SessionManager, config: GraphConfig): Promise<GraphSession> {
    const session = await sessionManager.openMultiAgent(config.id, 'graph');
    session.keepHistory(config.history);
    return new GraphSession(session, config);
  }

  /** The graph's history in its session (read-only). */
  history(): OrchestratorHistory {
    return new OrchestratorHistory(this.#session.repository, this.#session.sessionId, this.#config.id);
  }

  /** The store the session is in (a fork goes to the same store). */
  get repository(): SessionRepository {
    return this.#session.repository;
  }

  /**
   * Loads the stored run. An unfinished run (executing, interrupted by cancellation, or stopped by a budget) comes back
   * with its in-flight nodes moved to the front of the waiting ones, their agents restored to how
   * they were when those nodes started. A finished run is cleared: `undefined` means start fresh; so
   * is a run paused for answers when the caller does not bring answers (`answering: false`).
   */
  async resume(options: { answering: boolean }): Promise<RunState | undefined> {
    const snapshot = await this.#load();
    const status = snapshot?.state['status'];
    const paused = snapshot?.state['paused'];
    // A run that ended paused, invoked with a task instead of answers, is left for the new task. (One
    // stored as `executing` with paused nodes was cut by a crash before it ended: it resumes.)
    const abandoned =
      !options.answering &&
      status === 'interrupted' &&
      typeof paused === 'object' &&
      paused !== null &&
      Object.keys(paused).length > 0;
    if (!snapshot || !isUnfinished(status) || abandoned) {
      if (snapshot) await this.#session.clear();
      if (!this.#attached) await this.#attachAgents(new Map());
      return undefined;
    }
    await this.#attachAgents(checkpointsOf(snapshot.state));
    const transitions = await this.#session.repairTail(snapshot);
    const state = restoreRunState(snapshot.state, snapshot.nodes, transitions);
    const rerun = Object.entries(state.running);
    for (const [nodeId, at] of [...rerun, ...Object.entries(state.startPoints ?? {})]) {
      const target = this.#config.nodes.get(nodeId)?.target;
      if (!isAgent(target) || at.messages === undefined) continue;
      // Back to where the agent stood when the node started (its step was not committed).
      target.messages = target.messages.slice(0, at.messages);
      if (at.state) target.state.replace(at.state);
      restoreInterruptState(target, at.interruptState);
      // With a checkpoint, `#attachAgents` already removed what was stored after it; older runs rewrite the history.
      if (!at.checkpoint) await this.#session.resetAgent(target);
    }
    delete state.startPoints;
    requeueRunning(state);
    return state;
  }

  /** The stored run when it finished (`completed` or `failed`), else `undefined`; appends the last transitions a crash cut (the only write). */
  async finished(): Promise<RunState | undefined> {
    const snapshot = await this.#load();
    const status = snapshot?.state['status'];
    if (!snapshot || (status !== 'completed' && status !== 'failed')) return undefined;
    // A writer killed after committing the end of the run may not have appended its last transitions.
    return restoreRunState(snapshot.state, snapshot.nodes, await this.#session.repairTail(snapshot));
  }

  /** The interrupts a stored run paused for (none when it is not paused); reads only. */
  async pausedFor(): Promise<Interrupt[]> {
    const snapshot = await this.#load();
    const paused = snapshot?.state['paused'];
    // `executing` with paused nodes: a crash came before the end of the run that paused was stored.
    const status = snapshot?.state['status'];
    if ((status !== 'interrupted' && status !== 'executing') || typeof paused !== 'object' || paused === null)
      return [];
    return Object.values(paused as unknown as Record<string, { interrupts: Interrupt[] }>).flatMap((p) => p.interrupts);
  }

  /** Loads the stored run, refusing one that is not valid before anything acts on it (found by the bad-input fuzz). */
  async #load(): Promise<MultiAgentSnapshot | undefined> {
    const snapshot = await this.#session.load();
    const problem = snapshot && storedRunProblem(snapshot, new Set(this.#config.nodes.keys()));
    if (problem) {
      throw new SessionCorruptError(
        `The stored run of graph ${this.#config.id} in session ${this.#session.sessionId} is not valid: ${problem}. Fix it or delete that run (its orchestrator state); nothing was changed.`,
      );
    }
    return snapshot;
  }

  /** Stores a node agent's current history and state from scratch (after `resetOnRevisit`). */
  resetAgent(agent: Agent): Promise<void> {
    return this.#session.resetAgent(agent);
  }

  /**
   * Writes one step (`MultiAgentSession.commitRunStep`): the node entry (if any), the deferred writes of
   * `agent` (the node's agent: its messages and state) and the previous step's transitions in one round,
   * then the state document — the commit point, which names how many transitions are committed and
   * carries this step's own — and then, without waiting, this step's transitions. A crash before the
   * state document leaves the step undone (the node re-runs from its checkpoint and nothing of it is in
   * the history); a crash after it leaves transitions to append, which `resume` appends from the state
   * document: the history never doubles or loses a step's transitions.
   */
  save(write: {
    node?: { id: string; entry: JsonObject };
    agent?: Agent | undefined;
    transitions?: NewTransition[];
    state: JsonObject;
  }): Promise<NodeTransition[]> {
    return this.#session.commitRunStep({
      ...(write.node ? { nodes: [write.node] } : {}),
      ...(write.agent ? { agents: [write.agent] } : {}),
      state: write.state,
      transitions: write.transitions ?? [],
    });
  }

  /**
   * The first write of a run (fresh or resumed): the run document (`run`: the graph's shape, for
   * readers such as the inspector, beside the orchestrator's record), the state document (which
   * creates the orchestrator), then its transitions.
   */
  start(state: JsonObject, transitions: NewTransition[], run: JsonObject): Promise<NodeTransition[]> {
    return this.#session.commitRunStep({ state, transitions, run });
  }

  /** Waits until the last step's transitions are stored: call at the end of a run. */
  settle(): Promise<void> {
    return this.#session.settle();
  }

  /** Where a node agent's stored history stands now (committed with the node when it starts). */
  checkpointOf(agent: Agent): AgentCheckpoint | undefined {
    return this.#session.checkpointOf(agent);
  }

  /**
   * Restores each node agent from the session (or stores it there when new), up to 8 at once; later
   * writes wait for the node's step. A node that was running goes back to the checkpoint committed
   * when it started.
   */
  async #attachAgents(checkpoints: ReadonlyMap<string, AgentCheckpoint>): Promise<void> {
    const agents = [...this.#config.nodes.values()].flatMap(({ id, target }) =>
      isAgent(target) ? [{ id, agent: target }] : [],
    );
    // Several at once: a store's round trips overlap, and SQLite commits the new agents together.
    await mapLimit(agents, ATTACH_CONCURRENCY, ({ id, agent }) =>
      this.#session.attachAgent(agent, id, {
        restore: true,
        checkpoint: checkpoints.get(id),
        deferWrites: true,
      }),
    );
    this.#attached = true;
  }
}

/** The checkpoints of the agents of the nodes a stored run has running or waiting (checked by `storedRunProblem`). */
function checkpointsOf(state: JsonObject): Map<string, AgentCheckpoint> {
  type At = { checkpoint?: AgentCheckpoint };
  const running = Object.entries((state['running'] ?? {}) as unknown as Record<string, At>);
  const waiting = ((state['waiting'] ?? []) as unknown as (At & { nodeId: string })[]).map(
    (a) => [a.nodeId, a] as const,
  );
  return new Map([...waiting, ...running].flatMap(([id, f]) => (f.checkpoint ? [[id, f.checkpoint] as const] : [])));
}
