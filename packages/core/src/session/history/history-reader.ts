import { SessionCorruptError, SessionNotFoundError } from '../../errors/session-errors.js';
import type { JsonObject } from '../../types/json.js';
import { decodeBytes } from '../session-codec.js';
import type { SessionRepository } from '../session-repository.js';
import type { NodeTransition, SessionMessage } from '../session-types.js';
import { historyIndexId, historyRunId, stepOfEntry } from './history-ids.js';
import type { AgentAtStep, ForkOrigin, StepSnapshot, StoredRun, StoredStep } from './history-types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * Reads an orchestrator's history from a session (never writes): its runs, its committed steps, and
 * everything as it stood at one step. Steps past a run's committed end (written just before a crash)
 * and runs whose first step never committed are left out. A step that is missing inside a run, or
 * unreadable, is a `SessionCorruptError` naming it.
 */
export class OrchestratorHistory {
  readonly #repo: SessionRepository;
  readonly sessionId: string;
  readonly orchestratorId: string;
  #runs: Promise<StoredRun[]> | undefined;

  constructor(repo: SessionRepository, sessionId: string, orchestratorId: string) {
    this.#repo = repo;
    this.sessionId = sessionId;
    this.orchestratorId = orchestratorId;
  }

  /** The runs kept, oldest first (empty when the orchestrator keeps no history). */
  runs(): Promise<StoredRun[]> {
    this.#runs ??= this.#readRuns();
    return this.#runs;
  }

  /** Every kept step, in order. */
  async steps(): Promise<StoredStep[]> {
    const out: StoredStep[] = [];
    for (const run of await this.runs()) out.push(...(await this.#stepsOf(run)));
    return out;
  }

  /** One step; `SessionNotFoundError` when it is not kept. */
  async step(step: number): Promise<StoredStep> {
    const run = await this.#runOf(step);
    return (await this.#stepsOf(run, step)).at(-1) as StoredStep;
  }

  /** The steps of `step`'s run, from its first up to `step`. */
  async path(step: number): Promise<StoredStep[]> {
    return this.#stepsOf(await this.#runOf(step), step);
  }

  /** Everything as it stood at `step`: its state document, node entries, the run's transitions, each member agent with its messages. */
  async at(step: number): Promise<StepSnapshot> {
    const run = await this.#runOf(step);
    const steps = await this.#stepsOf(run, step);
    const nodes: Record<string, JsonObject> = {};
    const agents: Record<string, AgentAtStep> = {};
    const transitions: NodeTransition[] = [];
    for (const s of steps) {
      Object.assign(nodes, s.nodes);
      Object.assign(agents, s.agents);
      transitions.push(...s.transitions);
    }
    const last = steps.at(-1) as StoredStep;
    const archives = Object.keys(agents).length > 0 ? await this.#archives() : [];
    const withRows: StepSnapshot['agents'] = {};
    for (const [storeId, at] of Object.entries(agents)) {
      const archived = archives.find((a) => a.storeId === storeId && a.step >= step);
      const rows = archived ? archived.rows : await this.#repo.listMessages(this.sessionId, storeId);
      withRows[storeId] = { ...at, rows: rows.filter((r) => r.message_id < at.nextMessageId) };
    }
    return {
      step,
      run: run.run,
      at: last.at,
      state: last.state,
      nodes,
      transitions,
      agents: withRows,
      ...(run.forkedFrom ? { forkedFrom: run.forkedFrom } : {}),
    };
  }

  async #runOf(step: number): Promise<StoredRun> {
    if (!isCount(step)) throw new SessionNotFoundError(`A step is a whole number >= 0 (got ${JSON.stringify(step)}).`);
    const run = (await this.runs()).find((r) => r.firstStep <= step && step <= r.lastStep);
    if (run) return run;
    const kept = await this.runs();
    throw new SessionNotFoundError(
      `Step ${step} of orchestrator ${this.orchestratorId} in session ${this.sessionId} is not kept (${
        kept.length === 0 ? 'no history is kept' : `steps ${kept[0]?.firstStep}-${kept.at(-1)?.lastStep} are`
      }); list them with history().`,
    );
  }

  async #readRuns(): Promise<StoredRun[]> {
    const [index, main] = await Promise.all([
      this.#repo.readMultiAgent(this.sessionId, historyIndexId(this.orchestratorId)),
      this.#repo.readMultiAgent(this.sessionId, this.orchestratorId),
    ]);
    const lastRun = index?.state['lastRun'];
    if (!isCount(lastRun)) return [];
    const current = main && isCount(main.state['runNumber']) ? main.state['runNumber'] : undefined;
    const runs: StoredRun[] = [];
    for (let run = lastRun; run >= 1; run--) {
      const record = await this.#repo.readMultiAgent(this.sessionId, historyRunId(this.orchestratorId, run));
      if (!record) break;
      const state = record.state;
      const closed = state['closed'];
      const lastStep = run === current ? main?.state['step'] : isObj(closed) ? (closed as Obj)['lastStep'] : undefined;
      // Not current and never closed: its first step never committed.
      if (!isCount(lastStep) || !isCount(state['firstStep'])) continue;
      const forkedFrom = isObj(state['forkedFrom']) ? (state['forkedFrom'] as unknown as ForkOrigin) : undefined;
      runs.unshift({
        run,
        firstStep: state['firstStep'],
        lastStep,
        current: run === current,
        ...(forkedFrom ? { forkedFrom } : {}),
      });
    }
    return runs;
  }

  /** The run's steps from its first up to `upTo` (default its last), checked whole. */
  async #stepsOf(run: StoredRun, upTo = run.lastStep): Promise<StoredStep[]> {
    const recordId = historyRunId(this.orchestratorId, run.run);
    const entries = await this.#repo.readNodeEntries(this.sessionId, recordId);
    const bySeq = new Map<number, JsonObject>();
    for (const [id, entry] of Object.entries(entries)) {
      const step = stepOfEntry(id);
      if (step !== undefined) bySeq.set(step, entry);
    }
    const steps: StoredStep[] = [];
    for (let step = run.firstStep; step <= upTo; step++) {
      const entry = bySeq.get(step);
      if (!entry) throw this.#corrupt(step, run.run, 'is missing');
      steps.push(this.#decode(entry, step, run.run));
    }
    return steps;
  }

  #decode(entry: JsonObject, step: number, run: number): StoredStep {
    const raw = decodeBytes(entry) as Obj;
    if (
      raw['step'] !== step ||
      !isObj(raw['state']) ||
      !Array.isArray(raw['transitions']) ||
      !isObj(raw['nodes']) ||
      !isObj(raw['agents']) ||
      typeof raw['at'] !== 'string'
    )
      throw this.#corrupt(step, run, 'is not a valid step ({ step, at, state, transitions, nodes, agents })');
    for (const [storeId, a] of Object.entries(raw['agents'] as Obj)) {
      if (!isObj(a) || !isCount(a['nextMessageId']) || !isObj(a['record']))
        throw this.#corrupt(step, run, `has an invalid entry for agent ${JSON.stringify(storeId)}`);
    }
    return {
      step,
      run,
      at: raw['at'],
      state: raw['state'] as JsonObject,
      transitions: raw['transitions'] as NodeTransition[],
      nodes: raw['nodes'] as Record<string, JsonObject>,
      agents: raw['agents'] as Record<string, AgentAtStep>,
    };
  }

  #corrupt(step: number, run: number, what: string): SessionCorruptError {
    const location = `${historyRunId(this.orchestratorId, run)}/step ${step}`;
    return new SessionCorruptError(
      `Step ${step} (run ${run}) of orchestrator ${this.orchestratorId} in session ${this.sessionId} ${what}; restore it from a backup, or delete that run's history record (${historyRunId(this.orchestratorId, run)}).`,
      { location },
    );
  }

  /** Messages archived before a reset replaced them, by agent and by the last step that showed them. */
  async #archives(): Promise<{ storeId: string; step: number; rows: SessionMessage[] }[]> {
    const entries = await this.#repo.readNodeEntries(this.sessionId, historyIndexId(this.orchestratorId));
    const out: { storeId: string; step: number; rows: SessionMessage[] }[] = [];
    for (const [id, entry] of Object.entries(entries)) {
      if (!id.startsWith('archive-')) continue;
      const raw = decodeBytes(entry) as Obj;
      if (typeof raw['storeId'] === 'string' && isCount(raw['step']) && Array.isArray(raw['messages']))
        out.push({ storeId: raw['storeId'], step: raw['step'], rows: raw['messages'] as SessionMessage[] });
    }
    return out.sort((a, b) => a.step - b.step);
  }
}
