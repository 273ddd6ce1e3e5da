import type { JsonObject } from '../types/json.js';
import { numberTransitions, type NewTransition } from './run-tail.js';
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

/** A member agent's deferred writes, staged for its orchestrator's step batch (see `AgentPersistence.stage`). */
export interface StagedAgentWrites {
  writes: SessionWrite[];
  /** Call once the batch is settled: `true` when it was stored (the agent's bookkeeping moves on), else `false`. */
  settle(stored: boolean): void;
}

/** One step's writes as the record stores them (see `MultiAgentSession.commitStep`). */
export interface RecordStep {
  nodes: readonly { id: string; entry: JsonObject }[];
  state: JsonObject;
  /** The step's transitions, numbered from `nextSeq`. */
  transitions: readonly NodeTransition[];
}

/**
 * The stored side of one orchestrator in one session: whether its state document exists, the next
 * transition number, and the transitions of the last step still being appended after its commit
 * point. Callers (MultiAgentSession) run every method inside their one write queue.
 */
export class OrchestratorRecord {
  readonly #repo: SessionRepository;
  readonly #sessionId: string;
  readonly #id: string;
  readonly #type: string;
  /** Whether `#exists`, `#createdAt` and `#seq` reflect the store. */
  #known = false;
  #exists = false;
  #createdAt = nowIso();
  #seq = 0;
  /** The last step's transitions, appended after its commit point; every later write waits for them. */
  #trailing: Promise<void> = Promise.resolve();
  #trailingError: { error: unknown } | undefined;

  constructor(repo: SessionRepository, sessionId: string, id: string, type: string) {
    this.#repo = repo;
    this.#sessionId = sessionId;
    this.#id = id;
    this.#type = type;
  }

  /** Reads what was stored (waiting for trailing transitions, whose error it swallows). */
  async load(): Promise<MultiAgentSnapshot | undefined> {
    await this.drain(false);
    const stored = await this.#repo.readMultiAgent(this.#sessionId, this.#id);
    this.#known = true;
    this.#exists = stored !== undefined;
    this.#seq = 0;
    if (!stored) return undefined;
    this.#createdAt = stored.created_at;
    const [nodes, transitions] = await Promise.all([
      this.#repo.readNodeEntries(this.#sessionId, this.#id),
      this.#repo.readTransitions(this.#sessionId, this.#id),
    ]);
    this.#seq = transitions.length;
    return { state: stored.state, nodes, transitions };
  }

  /** The number the next transition gets. */
  get nextSeq(): number {
    return this.#seq;
  }

  /** Finds out what is stored when `load()` was not called; returns the state document it read then (else `undefined`). */
  async learn(): Promise<{ state: JsonObject | undefined } | undefined> {
    if (this.#known) return undefined;
    const stored = await this.#repo.readMultiAgent(this.#sessionId, this.#id);
    this.#exists = stored !== undefined;
    if (stored) {
      this.#createdAt = stored.created_at;
      this.#seq = (await this.#repo.readTransitions(this.#sessionId, this.#id)).length;
    }
    this.#known = true;
    return { state: stored?.state };
  }

  /** Writes the state document (creating the orchestrator the first time). */
  async writeState(state: JsonObject): Promise<void> {
    const doc = { id: this.#id, type: this.#type, state, created_at: this.#createdAt, updated_at: nowIso() };
    if (this.#exists) await this.#repo.updateMultiAgent(this.#sessionId, doc);
    else {
      await this.#repo.createMultiAgent(this.#sessionId, doc);
      this.#exists = true;
    }
  }

  /**
   * One step without `writeBatch`: node entries, `flushes` (member agents' deferred writes) and the
   * previous step's transitions in one round, then the state document, then the step's transitions
   * appended without being awaited. A first step writes its state document first (node entries need
   * the orchestrator). The caller checked the node ids before it started the flushes.
   */
  async commitRound(step: RecordStep, flushes: readonly Promise<void>[]): Promise<NodeTransition[]> {
    const putAll = (): Promise<void>[] =>
      step.nodes.map((node) => this.#repo.putNodeEntry(this.#sessionId, this.#id, node.id, node.entry));
    const creating = !this.#exists;
    await Promise.all([this.drain(true), ...flushes, ...(creating ? [] : putAll())]);
    await this.writeState(step.state);
    if (creating) await Promise.all(putAll());
    const stored = [...step.transitions];
    this.#seq += stored.length;
    if (stored.length > 0) {
      this.#trailing = this.#repo.appendTransitions(this.#sessionId, this.#id, stored).then(
        () => undefined,
        (error: unknown) => void (this.#trailingError ??= { error }),
      );
    }
    return stored;
  }

  /**
   * One step on a repository with `writeBatch`: the member agents' staged writes, `extra` (the step's
   * history), the state document, the node entries and the step's transitions in one batch (one transaction: its commit is the
   * step's commit point, and nothing trails it).
   */
  async commitBatch(
    step: RecordStep,
    stage: () => Promise<(StagedAgentWrites | undefined)[]>,
    writeBatch: (sessionId: string, writes: readonly SessionWrite[]) => Promise<void>,
    extra: readonly SessionWrite[] = [],
  ): Promise<NodeTransition[]> {
    for (const node of step.nodes) checkSessionId(node.id, 'node id');
    await this.drain(true);
    const staged = await stage();
    let stored = false;
    try {
      const transitions = [...step.transitions];
      const multiAgent = {
        id: this.#id,
        type: this.#type,
        state: step.state,
        created_at: this.#createdAt,
        updated_at: nowIso(),
      };
      const writes: SessionWrite[] = staged.flatMap((s) => s?.writes ?? []);
      writes.push(...extra);
      writes.push({ op: this.#exists ? 'updateMultiAgent' : 'createMultiAgent', multiAgent });
      for (const node of step.nodes)
        writes.push({ op: 'putNodeEntry', multiAgentId: this.#id, nodeId: node.id, entry: node.entry });
      if (transitions.length > 0) writes.push({ op: 'appendTransitions', multiAgentId: this.#id, transitions });
      await writeBatch(this.#sessionId, writes);
      stored = true;
      this.#exists = true;
      this.#seq += transitions.length;
      return transitions;
    } finally {
      for (const s of staged) s?.settle(stored);
    }
  }

  /** Waits for the trailing transitions; `raise`: rethrows their write's error (once). */
  async drain(raise: boolean): Promise<void> {
    await this.#trailing;
    const failed = this.#trailingError;
    this.#trailingError = undefined;
    if (failed && raise) throw failed.error;
  }

  /** Writes one node's entry. */
  putNode(nodeId: string, entry: JsonObject): Promise<void> {
    checkSessionId(nodeId, 'node id');
    return this.#repo.putNodeEntry(this.#sessionId, this.#id, nodeId, entry);
  }

  /** Numbers `transitions` after the stored ones and appends them (awaited). */
  async append(transitions: readonly NewTransition[]): Promise<NodeTransition[]> {
    const full = numberTransitions(this.#seq, transitions);
    if (full.length === 0) return full;
    await this.#repo.appendTransitions(this.#sessionId, this.#id, full);
    this.#seq += full.length;
    return full;
  }

  /** Removes the stored state, nodes and transitions: the next run starts fresh. */
  async clear(): Promise<void> {
    await this.drain(false);
    await this.#repo.deleteMultiAgent(this.#sessionId, this.#id);
    this.#known = true;
    this.#exists = false;
    this.#seq = 0;
    this.#createdAt = nowIso();
  }
}
