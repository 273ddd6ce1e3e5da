import {
  encodeBytes,
  withBytesEncoded,
  type JournalStep,
  type JsonObject,
  type JsonValue,
  type NodeResult,
  type NodeTransition,
  type OrchestratorBudget,
  type RunJournal,
} from '@skein/core';
import { agentOf, inFlightOf } from './agent-snapshot.js';
import type { GraphConfig } from './graph-types.js';
import type { InFlight, RunState } from './run-state.js';

/** What a graph's step reads of its graph (a part of the run's host). */
interface StepHost {
  readonly config: GraphConfig;
  readonly journal: RunJournal;
  readonly budget?: OrchestratorBudget | undefined;
}

/**
 * Hands one step of the run to its journal, the graph's one way to the store: the step's state
 * document is taken now, and made only when a session stores it (see `RunJournal.commit`).
 */
export function commitStep(
  host: StepHost,
  state: RunState,
  elapsedMs: number,
  step: Omit<JournalStep, 'state'>,
): Promise<NodeTransition[]> {
  const { journal, config, budget } = host;
  return journal.commit({ ...step, state: () => stepDocument(state, config, journal, elapsedMs, budget) });
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
