import {
  encodeBytes,
  interruptStateOf,
  isAgent,
  type Agent,
  withBytesEncoded,
  type JournalStep,
  type JsonObject,
  type JsonValue,
  type NodeResult,
  type NodeTransition,
  type OrchestratorBudget,
  type RunJournal,
} from '@skein/core';
import type { GraphConfig } from './graph-types.js';
import type { InFlight, RunState } from './run-state.js';
import type { Activation } from './schedule.js';

/** What a graph's step reads of its run: the run's host (a part of it), its state, its time. */
interface StepRun {
  readonly host: {
    readonly config: GraphConfig;
    readonly journal: RunJournal;
    readonly budget?: OrchestratorBudget | undefined;
  };
  readonly state: RunState;
  /** Time spent on the run, earlier processes included. */
  elapsedMs(): number;
}

/**
 * Hands one step of the run to its journal, the graph's one way to the store: the step's state
 * document is taken now, and made only when a session stores it (see `RunJournal.commit`).
 */
export function commitStep(run: StepRun, step: Omit<JournalStep, 'state'>): Promise<NodeTransition[]> {
  const { journal, config, budget } = run.host;
  return journal.commit({ ...step, state: () => stepDocument(run.state, config, journal, run.elapsedMs(), budget) });
}

/** The agent of a node (`undefined` for a nested orchestrator). */
export function agentOf(config: GraphConfig, nodeId: string): Agent | undefined {
  const target = config.nodes.get(nodeId)?.target;
  return isAgent(target) ? target : undefined;
}

/**
 * A node moving to `running` (or a waiting node, for the state document): its sources and, for an
 * agent, what the agent looks like now and where its stored history stands. `continues`: a stop left
 * the node there, and a resume goes on from this point. Only state documents read the agent's part:
 * without a session there is none to write, and nothing is copied.
 */
export function inFlightOf(
  activation: Activation,
  agent: Agent | undefined,
  journal: RunJournal,
  continues = false,
): InFlight {
  const mark = continues ? { continues: true as const } : {};
  if (!agent || !journal.persistent)
    return { sources: [...activation.sources], messages: undefined, state: undefined, ...mark };
  const checkpoint = journal.checkpointOf(agent);
  return {
    sources: [...activation.sources],
    messages: agent.messages.length,
    state: agent.state.get(),
    interruptState: interruptStateOf(agent),
    ...(checkpoint ? { checkpoint } : {}),
    ...mark,
  };
}

/** Where the agents of the waiting nodes stand now (stored with them; see `stateDocument`). */
function startPoints(state: RunState, config: GraphConfig, journal: RunJournal): Map<string, InFlight> {
  const points = new Map<string, InFlight>();
  for (const a of state.waiting) {
    const agent = agentOf(config, a.nodeId);
    if (agent && !points.has(a.nodeId)) points.set(a.nodeId, inFlightOf(a, agent, journal));
  }
  return points;
}

/** A step's state document: the run state now, where the waiting nodes' agents stand, and what the budget spent. */
function stepDocument(
  state: RunState,
  config: GraphConfig,
  journal: RunJournal,
  elapsedMs: number,
  budget: OrchestratorBudget | undefined,
): JsonObject {
  const doc = stateDocument(state, elapsedMs, startPoints(state, config, journal));
  return budget ? { ...doc, budget: { ...budget.spent() } } : doc;
}

/** A node's sources and, for an agent node, what its agent looked like (see {@link InFlight}), as JSON. */
function inFlightJson(f: InFlight): JsonObject {
  return {
    sources: [...f.sources],
    ...(f.messages === undefined ? {} : { messages: f.messages }),
    ...(f.state ? { state: f.state } : {}),
    ...(f.interruptState ? { interruptState: encodeBytes(f.interruptState) as JsonObject } : {}),
    ...(f.checkpoint
      ? { checkpoint: { nextMessageId: f.checkpoint.nextMessageId, conversation: f.checkpoint.conversation } }
      : {}),
    ...(f.continues ? { continues: true } : {}),
  };
}

/**
 * The session's state document: small, bounded by the size of the graph, not by the history.
 * `snapshots` are what the agents of waiting nodes look like now: a node's writes wait for its own
 * step, so a resume brings its agent back to this point when that step was cut by a crash.
 */
export function stateDocument(
  state: RunState,
  elapsedMs: number,
  snapshots: ReadonlyMap<string, InFlight> = new Map(),
): JsonObject {
  return {
    version: 1,
    status: state.status,
    runId: state.runId,
    task: withBytesEncoded(state.task) as JsonValue,
    executionCount: state.executionCount,
    orderLength: state.executionOrder.length,
    usage: { ...state.usage },
    waiting: state.waiting.map((a) => {
      const at = snapshots.get(a.nodeId);
      const continues = state.continuing.includes(a.nodeId) ? { continues: true } : {};
      return at
        ? { nodeId: a.nodeId, ...inFlightJson({ ...at, sources: [...a.sources] }), ...continues }
        : { nodeId: a.nodeId, sources: [...a.sources], ...continues };
    }),
    running: Object.fromEntries(Object.entries(state.running).map(([id, f]) => [id, inFlightJson(f)])),
    joins: Object.fromEntries([...state.joins].map(([k, v]) => [String(k), [...v]])),
    handled: [...state.handled],
    ...(Object.keys(state.paused).length > 0 ? { paused: JSON.parse(JSON.stringify(state.paused)) as JsonObject } : {}),
    ...(Object.keys(state.answers).length > 0
      ? { answers: JSON.parse(JSON.stringify(state.answers)) as JsonObject }
      : {}),
    elapsedMs,
    ...(state.failureReason === undefined ? {} : { failureReason: state.failureReason }),
  };
}

/** A node's session entry: its latest result (without the in-process result object) and its places in the execution order. */
export function nodeEntry(result: NodeResult, order: readonly number[]): JsonObject {
  const { result: _inProcess, ...plain } = result;
  return { result: JSON.parse(JSON.stringify(plain)) as JsonObject, order: [...order] };
}
