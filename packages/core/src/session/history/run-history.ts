import { ConfigurationError } from '../../errors/configuration-errors.js';
import { SessionConflictError } from '../../errors/session-errors.js';
import type { JsonObject } from '../../types/json.js';
import { withBytesEncoded } from '../session-codec.js';
import type { SessionRepository, SessionWrite } from '../session-repository.js';
import { nowIso, type NodeTransition, type SessionMultiAgent } from '../session-types.js';
import {
  HISTORY_RUN_TYPE,
  HISTORY_TYPE,
  archiveEntryId,
  historyIndexId,
  historyRunId,
  stepEntryId,
} from './history-ids.js';
import type { AgentAtStep, ForkOrigin, HistoryOptions } from './history-types.js';

/** The step about to be committed: its number, its run, and (when it opens that run's history) the index's new state. */
export interface PlannedStep {
  run: number;
  step: number;
  newRun: boolean;
  index?: JsonObject;
}

/** What a step's history entry holds besides its numbers. */
export interface StepContent {
  state: JsonObject;
  transitions: readonly NodeTransition[];
  nodes: readonly { id: string; entry: JsonObject }[];
  agents: Record<string, AgentAtStep>;
}

type Keep = NonNullable<HistoryOptions['keep']>;

/** Checks `options.keep` (default `'all'`); throws `ConfigurationError` for anything else. */
export function resolveKeep(options: HistoryOptions | undefined): Keep {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw new ConfigurationError(
      `history options are an object { keep } (got ${JSON.stringify(options) ?? typeof options}).`,
    );
  const keep = options?.keep ?? 'all';
  if (keep === 'all' || keep === 'none' || (typeof keep === 'number' && Number.isInteger(keep) && keep >= 1))
    return keep;
  throw new ConfigurationError(
    `history.keep must be 'all', 'none' or a whole number of runs >= 1 (got ${JSON.stringify(keep) ?? typeof keep}).`,
  );
}

/**
 * The writing side of an orchestrator's history (see `history-ids.ts` for where it lives). Every
 * committed step also stores one entry in its run's record, written before the step's commit point
 * (a crash before the commit leaves an entry past the committed step, which readers ignore and the
 * step's next attempt overwrites). The state document names its run and step (`runNumber`, `step`);
 * clearing a finished run first marks its record closed with its last step. Runs only inside the
 * orchestrator session's write queue.
 */
export class RunHistory {
  readonly #repo: SessionRepository;
  readonly #sessionId: string;
  readonly #id: string;
  readonly #type: string;
  #keep: Keep = 'all';
  /** The run of the stored state document and its last committed step (none: no document, or one written without history). */
  #current: { run: number; step: number; status: unknown } | undefined;
  /** The last run number and the next step number, once known (read from the index when a run opens). */
  #counters: { lastRun: number; nextStep: number } | undefined;
  /** The index record's state as last read or written (`null`: it does not exist; `undefined`: not read yet). */
  #index: JsonObject | null | undefined;

  constructor(repo: SessionRepository, sessionId: string, id: string, type: string) {
    this.#repo = repo;
    this.#sessionId = sessionId;
    this.#id = id;
    this.#type = type;
  }

  /** Sets what to keep (validated). */
  configure(options: HistoryOptions | undefined): void {
    this.#keep = resolveKeep(options);
  }

  get enabled(): boolean {
    return this.#keep !== 'none';
  }

  /** Takes the run and step named by the state document the orchestrator loaded (`undefined`: none stored). */
  learn(state: JsonObject | undefined): void {
    const run = state?.['runNumber'];
    const step = state?.['step'];
    if (typeof run === 'number' && typeof step === 'number') {
      this.#current = { run, step, status: state?.['status'] };
      this.#counters = { lastRun: Math.max(run, this.#counters?.lastRun ?? 0), nextStep: step + 1 };
    } else this.#current = undefined;
  }

  /** The number and run of the next step; opens a new run when no run is current. */
  async plan(): Promise<PlannedStep> {
    if (this.#current) return { run: this.#current.run, step: this.#current.step + 1, newRun: false };
    if (this.#index === undefined || !this.#counters) await this.#discover();
    const counters = this.#counters ?? { lastRun: 0, nextStep: 0 };
    const run = counters.lastRun + 1;
    const base = this.#index ?? RunHistory.indexState(this.#id, this.#type, 0);
    return {
      run,
      step: counters.nextStep,
      newRun: true,
      index: { ...base, lastRun: run, firstStep: counters.nextStep },
    };
  }

  /** The state document's envelope for `planned`. */
  static envelope(planned: PlannedStep): JsonObject {
    return { runNumber: planned.run, step: planned.step };
  }

  /**
   * The step's history writes without a batch: for a new run the index and the run's record, then
   * the step's entry. Harmless before the commit point (see the class comment).
   */
  async write(planned: PlannedStep, content: StepContent): Promise<void> {
    if (planned.newRun) {
      // Created, or replaced when an earlier attempt of this step (failed before its commit) made it. A
      // conflict about a record that is not there is another writer's (a stale view): it goes to the caller.
      const put = async (doc: SessionMultiAgent): Promise<void> => {
        await this.#repo.createMultiAgent(this.#sessionId, doc).catch(async (error: unknown) => {
          if (!(error instanceof SessionConflictError)) throw error;
          if (!(await this.#repo.readMultiAgent(this.#sessionId, doc.id))) throw error;
          await this.#repo.updateMultiAgent(this.#sessionId, doc);
        });
      };
      const [index, run] = this.#openRun(planned);
      await Promise.all([put(index.multiAgent), put(run.multiAgent)]);
      this.#index = planned.index ?? null;
    }
    const entry = stepEntry(planned, content);
    await this.#repo.putNodeEntry(
      this.#sessionId,
      historyRunId(this.#id, planned.run),
      stepEntryId(planned.step),
      entry,
    );
  }

  /** The same writes, for a step stored as one batch. */
  batch(planned: PlannedStep, content: StepContent): SessionWrite[] {
    const writes: SessionWrite[] = planned.newRun ? this.#openRun(planned) : [];
    writes.push({
      op: 'putNodeEntry',
      multiAgentId: historyRunId(this.#id, planned.run),
      nodeId: stepEntryId(planned.step),
      entry: stepEntry(planned, content),
    });
    return writes;
  }

  /** After the step's commit point: it is the current step; a new run drops the runs past `keep`. */
  async committed(planned: PlannedStep, state: JsonObject): Promise<void> {
    this.#current = { run: planned.run, step: planned.step, status: state['status'] };
    this.#counters = { lastRun: planned.run, nextStep: planned.step + 1 };
    if (planned.index) this.#index = planned.index;
    if (!planned.newRun || typeof this.#keep !== 'number') return;
    for (let run = planned.run - this.#keep; run >= 1; run--) {
      const id = historyRunId(this.#id, run);
      if (!(await this.#repo.readMultiAgent(this.#sessionId, id).catch(() => undefined))) break;
      await this.#repo.deleteMultiAgent(this.#sessionId, id).catch(() => undefined);
    }
  }

  /** Before the orchestrator's record is deleted (a finished run cleared): marks the current run's record closed at its last step. */
  async close(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    if (!current || !this.enabled) return;
    const id = historyRunId(this.#id, current.run);
    const stored = await this.#repo.readMultiAgent(this.#sessionId, id);
    if (!stored) return;
    const closed = { lastStep: current.step, status: current.status ?? null, at: nowIso() } as JsonObject;
    await this.#repo.updateMultiAgent(this.#sessionId, {
      ...stored,
      state: { ...stored.state, closed },
      updated_at: nowIso(),
    });
  }

  /** Keeps `messages` (a member's stored history, about to be replaced by a reset) for the steps up to the last committed one. */
  async archive(storeId: string, messages: readonly unknown[]): Promise<void> {
    if (!this.enabled || !this.#current) return;
    const step = this.#current.step;
    const entry = withBytesEncoded({ storeId, step, messages }) as JsonObject;
    await this.#repo.putNodeEntry(this.#sessionId, historyIndexId(this.#id), archiveEntryId(step, storeId), entry);
  }

  /** Marks the index of a fork with its origin (written when the fork is made). */
  static indexState(id: string, type: string, lastRun: number, forkedFrom?: ForkOrigin): JsonObject {
    return {
      kind: 'skein.history',
      version: 1,
      of: id,
      type,
      lastRun,
      ...(forkedFrom ? { forkedFrom: forkedFrom as unknown as JsonObject } : {}),
    };
  }

  /** The writes that open run `planned.run`: the index (created or updated) and the run's record. */
  #openRun(
    planned: PlannedStep,
  ): [SessionWrite & { multiAgent: SessionMultiAgent }, SessionWrite & { multiAgent: SessionMultiAgent }] {
    const now = nowIso();
    const indexState = planned.index ?? RunHistory.indexState(this.#id, this.#type, planned.run);
    const index: SessionMultiAgent = {
      id: historyIndexId(this.#id),
      type: HISTORY_TYPE,
      state: indexState,
      created_at: now,
      updated_at: now,
    };
    const op = this.#index ? 'updateMultiAgent' : 'createMultiAgent';
    const runState = {
      kind: 'skein.history.run',
      version: 1,
      of: this.#id,
      run: planned.run,
      firstStep: planned.step,
      startedAt: now,
    };
    const run: SessionMultiAgent = {
      id: historyRunId(this.#id, planned.run),
      type: HISTORY_RUN_TYPE,
      state: runState,
      created_at: now,
      updated_at: now,
    };
    return [
      { op, multiAgent: index },
      { op: 'createMultiAgent', multiAgent: run },
    ];
  }

  /**
   * Reads the index and, unless known, the counters when no run is current: the index's last run; the
   * next step is the one after that run's closing step, or (a run whose first step never committed)
   * its first step again.
   */
  async #discover(): Promise<void> {
    const index = await this.#repo.readMultiAgent(this.#sessionId, historyIndexId(this.#id));
    this.#index = index?.state ?? null;
    if (!this.#counters) this.#counters = index ? await this.#countersAfter(index.state) : { lastRun: 0, nextStep: 0 };
  }

  async #countersAfter(index: JsonObject): Promise<{ lastRun: number; nextStep: number }> {
    const lastRun = typeof index['lastRun'] === 'number' ? index['lastRun'] : 0;
    const indexFirst = typeof index['firstStep'] === 'number' ? index['firstStep'] : 0;
    const run =
      lastRun > 0 ? await this.#repo.readMultiAgent(this.#sessionId, historyRunId(this.#id, lastRun)) : undefined;
    const closed = run?.state['closed'] as { lastStep?: unknown } | undefined;
    if (closed && typeof closed.lastStep === 'number') return { lastRun, nextStep: closed.lastStep + 1 };
    const first = run?.state['firstStep'];
    return { lastRun, nextStep: typeof first === 'number' ? first : indexFirst };
  }
}

/** A step's entry in its run's record (bytes encoded the way sessions store them). */
function stepEntry(planned: PlannedStep, content: StepContent): JsonObject {
  // Not a copy: the step's records are made fresh for its writes, which share them.
  return withBytesEncoded({
    step: planned.step,
    run: planned.run,
    at: nowIso(),
    state: content.state,
    transitions: content.transitions,
    nodes: Object.fromEntries(content.nodes.map((n) => [n.id, n.entry])),
    agents: content.agents,
  }) as JsonObject;
}
