import type { Agent } from '../agent/agent.js';
import { SessionNotFoundError } from '../errors/session-errors.js';
import { AfterInvocationEvent, MessageAddedEvent } from '../hooks/events.js';
import type { JsonObject } from '../types/json.js';
import { AgentPersistence, type AgentCheckpoint } from './agent-persistence.js';
import { SerialQueue } from './serial-queue.js';
import { checkSessionId } from './session-codec.js';
import type { SessionRepository, SessionWrite } from './session-repository.js';
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

/** What one orchestration step stores: see {@link MultiAgentSession.commitStep}. */
export interface StepWrite {
  /** Node entries (each replaces that node's earlier entry). */
  nodes?: readonly { id: string; entry: JsonObject }[];
  /** Member agents attached with `deferWrites` whose messages and state since their last step go with this one. */
  agents?: readonly Agent[];
  /** The orchestrator's state document: the step's commit point, written after everything else of the step. */
  state: JsonObject;
  /** The step's transitions, numbered now and appended after the commit point (awaited by the next write). */
  transitions?: readonly NewTransition[];
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
  readonly #queue = new SerialQueue();
  /** Whether `#exists`, `#createdAt` and `#seq` reflect the store. */
  #known = false;
  #exists = false;
  #createdAt = nowIso();
  #seq = 0;
  readonly #agents = new Map<Agent, AgentPersistence>();
  /** The last step's transitions, appended after its commit point; every later write waits for them. */
  #trailing: Promise<void> = Promise.resolve();
  #trailingError: { error: unknown } | undefined;

  constructor(repo: SessionRepository, sessionId: string, multiAgentId: string, type: string) {
    checkSessionId(multiAgentId, 'orchestrator id');
    this.#repo = repo;
    this.sessionId = sessionId;
    this.multiAgentId = multiAgentId;
    this.type = type;
  }

  /** Reads what was stored, or `undefined` for a new orchestrator. */
  load(): Promise<MultiAgentSnapshot | undefined> {
    return this.#queue.run(async () => {
      await this.#drain(false);
      const stored = await this.#repo.readMultiAgent(this.sessionId, this.multiAgentId);
      this.#known = true;
      this.#exists = stored !== undefined;
      this.#seq = 0;
      if (!stored) return undefined;
      this.#createdAt = stored.created_at;
      const [nodes, transitions] = await Promise.all([
        this.#repo.readNodeEntries(this.sessionId, this.multiAgentId),
        this.#repo.readTransitions(this.sessionId, this.multiAgentId),
      ]);
      this.#seq = transitions.length;
      return { state: stored.state, nodes, transitions };
    });
  }

  /** Writes the orchestrator's state document (keep it small: per-node data goes to `saveNode`). */
  saveState(state: JsonObject): Promise<void> {
    return this.#queue.run(async () => {
      await this.#drain(true);
      await this.#learn();
      await this.#writeState(state);
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
   * the orchestrator, then its node entries. Resolves with the step's transitions, numbered.
   */
  commitStep(step: StepWrite): Promise<NodeTransition[]> {
    return this.#queue.run(async () => {
      await this.#learn();
      if (this.#repo.writeBatch) return this.#commitBatch(step, this.#repo.writeBatch.bind(this.#repo));
      const nodes = step.nodes ?? [];
      for (const node of nodes) checkSessionId(node.id, 'node id');
      const putAll = (): Promise<void>[] =>
        nodes.map((node) => this.#repo.putNodeEntry(this.sessionId, this.multiAgentId, node.id, node.entry));
      const creating = !this.#exists; // node entries need the orchestrator: a first step puts them after its state document
      await Promise.all([
        this.#drain(true),
        ...(step.agents ?? []).map((agent) => this.#agents.get(agent)?.flush()),
        ...(creating ? [] : putAll()),
      ]);
      await this.#writeState(step.state);
      if (creating) await Promise.all(putAll());
      const stored = (step.transitions ?? []).map(
        (t, i): NodeTransition => ({ seq: this.#seq + i, ...t, at: nowIso() }),
      );
      this.#seq += stored.length;
      if (stored.length > 0) {
        this.#trailing = this.#repo.appendTransitions(this.sessionId, this.multiAgentId, stored).then(
          () => undefined,
          (error: unknown) => void (this.#trailingError ??= { error }),
        );
      }
      return stored;
    });
  }

  /**
   * `commitStep` on a repository with `writeBatch`: the member agents' deferred writes, the state
   * document, the node entries and the step's transitions in one batch (one transaction: its commit
   * is the step's commit point, and nothing trails it).
   */
  async #commitBatch(
    step: StepWrite,
    writeBatch: (sessionId: string, writes: readonly SessionWrite[]) => Promise<void>,
  ): Promise<NodeTransition[]> {
    const nodes = step.nodes ?? [];
    for (const node of nodes) checkSessionId(node.id, 'node id');
    await this.#drain(true);
    const staged = await Promise.all((step.agents ?? []).map((agent) => this.#agents.get(agent)?.stage()));
    let stored = false;
    try {
      const transitions = (step.transitions ?? []).map(
        (t, i): NodeTransition => ({ seq: this.#seq + i, ...t, at: nowIso() }),
      );
      const now = nowIso();
      const multiAgent = {
        id: this.multiAgentId,
        type: this.type,
        state: step.state,
        created_at: this.#createdAt,
        updated_at: now,
      };
      const writes: SessionWrite[] = staged.flatMap((s) => s?.writes ?? []);
      writes.push({ op: this.#exists ? 'updateMultiAgent' : 'createMultiAgent', multiAgent });
      for (const node of nodes)
        writes.push({ op: 'putNodeEntry', multiAgentId: this.multiAgentId, nodeId: node.id, entry: node.entry });
      if (transitions.length > 0)
        writes.push({ op: 'appendTransitions', multiAgentId: this.multiAgentId, transitions });
      await writeBatch(this.sessionId, writes);
      stored = true;
      this.#exists = true;
      this.#seq += transitions.length;
      return transitions;
    } finally {
      for (const s of staged) s?.settle(stored);
    }
  }

  /** Waits until the last step's transitions are stored (rejects with their write's error). Call at the end of a run. */
  settle(): Promise<void> {
    return this.#queue.run(() => this.#drain(true));
  }

  /** Where `agent` (attached) stands now: what an orchestrator commits to restore it to after a crash. */
  checkpointOf(agent: Agent): AgentCheckpoint | undefined {
    return this.#agents.get(agent)?.checkpoint(agent);
  }

  async #writeState(state: JsonObject): Promise<void> {
    const doc = { id: this.multiAgentId, type: this.type, state, created_at: this.#createdAt, updated_at: nowIso() };
    if (this.#exists) await this.#repo.updateMultiAgent(this.sessionId, doc);
    else {
      await this.#repo.createMultiAgent(this.sessionId, doc);
      this.#exists = true;
    }
  }

  /** Waits for the trailing transitions; `raise`: rethrows their write's error (once). */
  async #drain(raise: boolean): Promise<void> {
    await this.#trailing;
    const failed = this.#trailingError;
    this.#trailingError = undefined;
    if (failed && raise) throw failed.error;
  }

  /** Writes one node's entry (replacing that node's earlier entry). The orchestrator state must exist: call `saveState` first. */
  saveNode(nodeId: string, entry: JsonObject): Promise<void> {
    return this.#queue.run(async () => {
      checkSessionId(nodeId, 'node id');
      await this.#drain(true);
      await this.#repo.putNodeEntry(this.sessionId, this.multiAgentId, nodeId, entry);
    });
  }

  /** Appends one transition to the history and returns it with its `seq` and time. The orchestrator state must exist. */
  appendTransition(transition: NewTransition): Promise<NodeTransition> {
    return this.#queue.run(async () => {
      await this.#drain(true);
      await this.#learn();
      const full: NodeTransition = { seq: this.#seq, ...transition, at: nowIso() };
      await this.#repo.appendTransitions(this.sessionId, this.multiAgentId, [full]);
      this.#seq++;
      return full;
    });
  }

  /**
   * Persists a member agent under `<orchestrator id>.<key>`: restores what was stored (when `restore`),
   * or stores it as it is now (replacing what was stored); then stores each message it adds and its
   * state after each invocation (with `deferWrites`: in the next `commitStep` that names it).
   */
  async attachAgent(agent: Agent, key: string, options: AttachOptions): Promise<void> {
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

  /** Stores a member agent's current history from scratch (after `resetOnRevisit` or a fresh start). */
  async resetAgent(agent: Agent): Promise<void> {
    await this.#agents.get(agent)?.reset(agent);
  }

  /** Removes the orchestrator's stored state, nodes and transitions: the next run starts fresh. */
  clear(): Promise<void> {
    return this.#queue.run(async () => {
      await this.#drain(false);
      await this.#repo.deleteMultiAgent(this.sessionId, this.multiAgentId);
      this.#known = true;
      this.#exists = false;
      this.#seq = 0;
      this.#createdAt = nowIso();
    });
  }

  /** Finds out what is stored when `load()` was not called (runs inside the queue). */
  async #learn(): Promise<void> {
    if (this.#known) return;
    const stored = await this.#repo.readMultiAgent(this.sessionId, this.multiAgentId);
    this.#exists = stored !== undefined;
    if (stored) {
      this.#createdAt = stored.created_at;
      this.#seq = (await this.#repo.readTransitions(this.sessionId, this.multiAgentId)).length;
    }
    this.#known = true;
  }
}
