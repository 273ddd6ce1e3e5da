import type { AgentHandle } from '../agent/agent-handle.js';
import { SessionCorruptError, SessionNotFoundError } from '../errors/session-errors.js';
import { AfterInvocationEvent, MessageAddedEvent } from '../hooks/events.js';
import type { JsonObject } from '../types/json.js';
import { AgentPersistence } from './agent-persistence.js';
import type { AgentCheckpoint } from './stored-history.js';
import { OrchestratorRecord, type MultiAgentSnapshot, type RecordStep } from './orchestrator-record.js';
import type { AgentAtStep, HistoryOptions } from './history/history-types.js';
import { RunHistory } from './history/run-history.js';
import { RunDocument } from './run-document.js';
import { cutTail, numberTransitions, withRunTail, type NewTransition } from './run-tail.js';
import { SerialQueue } from './serial-queue.js';
import { checkSessionId } from './session-codec.js';
import type { SessionRepository, SessionWrite } from './session-repository.js';
import type { NodeTransition } from './session-types.js';

export type { MultiAgentSnapshot } from './orchestrator-record.js';
export type { NewTransition } from './run-tail.js';

/** What one orchestration step stores: see {@link MultiAgentSession.commitStep}. */
export interface StepWrite {
  /** Node entries (each replaces that node's earlier entry). */
  nodes?: readonly { id: string; entry: JsonObject }[];
  /** Member agents attached with `deferWrites` whose messages and state since their last step go with this one. */
  agents?: readonly AgentHandle[];
  /** The orchestrator's state document: the step's commit point, written after everything else of the step. */
  state: JsonObject;
  /** The step's transitions, numbered now and appended after the commit point (awaited by the next write). */
  transitions?: readonly NewTransition[];
  /**
   * With a run's first step: the run's own document (a graph's shape, a swarm's members), stored once
   * per run beside the orchestrator's record (`<id>@run`) before the commit point, for readers such as
   * the inspector; state documents then need not carry it.
   */
  run?: JsonObject;
}

/** How {@link MultiAgentSession.attachAgent} persists a member agent. */
export interface AttachOptions {
  /** Restore what was stored (else store the agent as it is now, replacing what was stored). */
  restore: boolean;
  /** With `restore`: the checkpoint committed for this agent; messages stored after it are removed and its conversation-manager state is used. */
  checkpoint?: AgentCheckpoint | undefined;
  /** Hold the agent's writes until a `commitStep` names it (in that step's round) instead of writing each message as it comes. */
  deferWrites?: boolean;
}

/**
 * An orchestrator's handle on its session: its small state document, one entry per node (written
 * when that node finishes, so persisting a node costs in proportion to its own output), the
 * append-only transition history, and the messages and state of its member agents.
 *
 * State writes and transitions are queued in call order, so parallel nodes may call `saveState` and
 * `appendTransition` without awaiting each other: transitions get consecutive `seq` numbers and the
 * last `saveState` called is the one stored. Calling `load()` first is recommended but not required.
 */
export class MultiAgentSession {
  readonly #repo: SessionRepository;
  readonly sessionId: string;
  readonly multiAgentId: string;
  readonly type: string;
  /** The one write queue of this orchestrator: state documents, steps, transitions and repairs, in call order. */
  readonly #queue = new SerialQueue();
  readonly #record: OrchestratorRecord;
  readonly #history: RunHistory;
  readonly #runDocument: RunDocument;
  readonly #agents = new Map<AgentHandle, AgentPersistence>();

  constructor(repo: SessionRepository, sessionId: string, multiAgentId: string, type: string) {
    checkSessionId(multiAgentId, 'orchestrator id');
    this.#repo = repo;
    this.sessionId = sessionId;
    this.multiAgentId = multiAgentId;
    this.type = type;
    this.#record = new OrchestratorRecord(repo, sessionId, multiAgentId, type);
    this.#history = new RunHistory(repo, sessionId, multiAgentId, type);
    this.#runDocument = new RunDocument(repo, sessionId, multiAgentId);
  }

  /** The repository this session writes through. */
  get repository(): SessionRepository {
    return this.#repo;
  }

  /**
   * What `commitRunStep` keeps of past steps (default `{ keep: 'all' }`): every committed step of
   * every run, in records beside the orchestrator's (see `readHistory`). Throws `ConfigurationError`
   * for an invalid `keep`.
   */
  keepHistory(options: HistoryOptions | undefined): void {
    this.#history.configure(options);
  }

  /** Reads what was stored, or `undefined` for a new orchestrator. */
  load(): Promise<MultiAgentSnapshot | undefined> {
    return this.#queue.run(async () => {
      const snapshot = await this.#record.load();
      if (snapshot?.state['forking'] === true) {
        throw new SessionCorruptError(
          `Session ${this.sessionId} is a fork of ${this.multiAgentId} that was cut before it was complete; delete the session and fork again (forking into the same id again replaces it).`,
        );
      }
      this.#history.learn(snapshot?.state);
      return snapshot;
    });
  }

  /** Writes the orchestrator's state document (keep it small: per-node data goes to `saveNode`). */
  saveState(state: JsonObject): Promise<void> {
    return this.#queue.run(async () => {
      await this.#record.drain(true);
      await this.#record.learn();
      await this.#record.writeState(state);
    });
  }

  /**
   * Stores one step in one round of writes plus its commit point: the node entries, the deferred
   * writes of `agents` and the previous step's transitions go out together; once all are stored, the
   * state document (the commit point) is written; then the step's transitions, numbered now, are
   * appended without being awaited (the next write waits for them; call `settle()` at the end of a
   * run). A crash before the state document leaves the step undone; a crash after it leaves at most
   * the transitions it carries to append, which the orchestrator appends from its state document.
   * The first step of a run (no state document yet) writes the state document first, which creates
   * the orchestrator, then its node entries. On a repository with `writeBatch` the whole step is one
   * batch (one transaction), and nothing trails it. Resolves with the step's transitions, numbered.
   */
  commitStep(step: StepWrite): Promise<NodeTransition[]> {
    return this.#commit(step, false);
  }

  /**
   * `commitStep` for an orchestrator run (Graph, Swarm): the state document also names how many
   * transitions are committed in all and carries the step's own (`transitionCount`,
   * `lastTransitions`), so that {@link repairTail} can append the ones a crash cut after the commit
   * point. The orchestrator only says what its step contains. With history kept (`keepHistory`), the
   * step is also kept as an entry of its run's history record, written before the commit point (in
   * the same batch on stores with `writeBatch`), and the state document names its run and step
   * (`runNumber`, `step`).
   */
  commitRunStep(step: StepWrite): Promise<NodeTransition[]> {
    return this.#commit(step, true);
  }

  /**
   * Appends the committed transitions a crash cut off after the commit point of `snapshot` (a run
   * written by {@link commitRunStep}; its state document counts and carries them, `details` included)
   * and resolves with the whole history. Writes nothing when nothing was cut.
   */
  repairTail(snapshot: MultiAgentSnapshot): Promise<NodeTransition[]> {
    return this.#queue.run(async () => {
      const missing = cutTail(snapshot.state, snapshot.transitions.length);
      if (missing.length === 0) return snapshot.transitions;
      await this.#record.drain(true);
      await this.#record.learn();
      const repaired = [...snapshot.transitions];
      for (const t of missing) repaired.push(...(await this.#record.append([t])));
      return repaired;
    });
  }

  #commit(step: StepWrite, run: boolean): Promise<NodeTransition[]> {
    return this.#queue.run(async () => {
      const learned = await this.#record.learn();
      if (learned) this.#history.learn(learned.state);
      const raw = step.transitions ?? [];
      const transitions = numberTransitions(this.#record.nextSeq, raw);
      const planned = run && this.#history.enabled ? await this.#history.plan() : undefined;
      const state = run
        ? {
            ...withRunTail(step.state, this.#record.nextSeq + raw.length, raw),
            ...(planned ? RunHistory.envelope(planned) : {}),
          }
        : step.state;
      const write: RecordStep = { nodes: step.nodes ?? [], state, transitions };
      const agents = step.agents ?? [];
      const content = planned && {
        ...write,
        agents: this.#snapshots(planned.newRun ? [...this.#agents.keys()] : agents),
      };
      const repo = this.#repo;
      let stored: NodeTransition[];
      if (repo.writeBatch) {
        const stage = () => Promise.all(agents.map((agent) => this.#agents.get(agent)?.stage()));
        const extra: SessionWrite[] = planned && content ? this.#history.batch(planned, content) : [];
        if (step.run) extra.push(await this.#runDocument.batch(step.run));
        stored = await this.#record.commitBatch(write, stage, repo.writeBatch.bind(repo), extra);
        if (step.run) this.#runDocument.stored();
      } else {
        for (const node of write.nodes) checkSessionId(node.id, 'node id');
        const flushes = agents.flatMap((agent) => this.#agents.get(agent)?.flush() ?? []);
        if (planned && content) flushes.push(this.#history.write(planned, content));
        if (step.run) flushes.push(this.#runDocument.write(step.run));
        stored = await this.#record.commitRound(write, flushes);
      }
      if (planned) await this.#history.committed(planned, state);
      return stored;
    });
  }

  /** What a step's history keeps of `agents`: each one's stored position and record once its held writes are stored. */
  #snapshots(agents: readonly AgentHandle[]): Record<string, AgentAtStep> {
    const out: Record<string, AgentAtStep> = {};
    for (const agent of agents) {
      const persistence = this.#agents.get(agent);
      if (persistence) out[persistence.storeId] = persistence.snapshot(agent);
    }
    return out;
  }

  /** Waits until the last step's transitions are stored (rejects with their write's error). Call at the end of a run. */
  settle(): Promise<void> {
    return this.#queue.run(() => this.#record.drain(true));
  }

  /** Where `agent` (attached) stands now: what an orchestrator commits to restore it to after a crash. */
  checkpointOf(agent: AgentHandle): AgentCheckpoint | undefined {
    return this.#agents.get(agent)?.checkpoint(agent);
  }

  /** Writes one node's entry (replacing that node's earlier entry). The orchestrator state must exist: call `saveState` first. */
  saveNode(nodeId: string, entry: JsonObject): Promise<void> {
    return this.#queue.run(async () => {
      checkSessionId(nodeId, 'node id');
      await this.#record.drain(true);
      await this.#record.putNode(nodeId, entry);
    });
  }

  /** Appends one transition to the history and returns it with its `seq` and time. The orchestrator state must exist. */
  appendTransition(transition: NewTransition): Promise<NodeTransition> {
    return this.#queue.run(async () => {
      await this.#record.drain(true);
      await this.#record.learn();
      const [full] = await this.#record.append([transition]);
      return full as NodeTransition;
    });
  }

  /**
   * Persists a member agent under `<orchestrator id>.<key>`: restores what was stored (when `restore`),
   * or stores it as it is now (replacing what was stored); then stores each message it adds and its
   * state after each invocation (with `deferWrites`: in the next `commitStep` that names it).
   */
  async attachAgent(agent: AgentHandle, key: string, options: AttachOptions): Promise<void> {
    checkSessionId(key, 'node id');
    if (this.multiAgentId.endsWith('.')) {
      throw new SessionNotFoundError(
        `Invalid orchestrator id ${JSON.stringify(this.multiAgentId)}: its member agents are stored as "<orchestrator id>.<node id>", and an id ending in "." would give them a "..". Use an id that does not end with ".".`,
      );
    }
    let persistence = this.#agents.get(agent);
    if (!persistence) {
      persistence = new AgentPersistence(this.#repo, this.sessionId, `${this.multiAgentId}.${key}`, {
        deferred: options.deferWrites === true,
      });
      this.#agents.set(agent, persistence);
      const p = persistence;
      agent.hooks.addCallback(MessageAddedEvent, (event) => p.append(event.message));
      agent.hooks.addCallback(AfterInvocationEvent, (event) => p.sync(event.agent));
    }
    if (options.restore) await persistence.restore(agent, options.checkpoint);
    else await persistence.reset(agent);
  }

  /**
   * Stores a member agent's current history from scratch (after `resetOnRevisit` or a fresh start),
   * after the writes queued before it. With history kept, the messages it replaces are archived first
   * (earlier steps still show them).
   */
  resetAgent(agent: AgentHandle): Promise<void> {
    return this.#queue.run(async () => {
      const persistence = this.#agents.get(agent);
      if (!persistence) return;
      if (this.#history.enabled) {
        const rows = await this.#repo.listMessages(this.sessionId, persistence.storeId);
        await this.#history.archive(persistence.storeId, rows);
      }
      await persistence.reset(agent);
    });
  }

  /** Removes the orchestrator's stored state, nodes and transitions: the next run starts fresh (its history is kept, marked closed). */
  clear(): Promise<void> {
    return this.#queue.run(async () => {
      await this.#record.drain(false);
      await this.#history.close();
      await this.#record.clear();
    });
  }
}
