import { randomUUID } from 'node:crypto';
import {
  type AgentCheckpoint,
  decodeBytes,
  emptyUsage,
  type AccumulatedUsage,
  type BudgetSpend,
  type Interrupt,
  type InterruptResponse,
  type JsonObject,
  type MultiAgentTask,
  type NodeResult,
  type NodeTransition,
  type Status,
  type StepSnapshot,
} from '@skein/core';
import type { Activation, JoinProgress } from './schedule.js';

/** A node that has started and not finished: what its agent looked like when it started. */
export interface InFlight {
  sources: string[];
  /** Length of the agent's live history when the node started (`undefined` for orchestrators). */
  messages: number | undefined;
  /** The agent's state when the node started. */
  state: JsonObject | undefined;
  /** The agent's turn waiting for answers when the node started (a node resumed with answers). */
  interruptState?: JsonObject | undefined;
  /** Where the agent's stored history stood when the node started (its writes wait for the node's step). */
  checkpoint?: AgentCheckpoint | undefined;
  /**
   * The node was stopped (budget, cancellation) and this is where its agent stood then: a resume
   * continues the agent from here (no new input), so the tool calls it finished are not run again.
   */
  continues?: true;
}

/** Where a node waits for a person: before it runs (a BeforeNodeCallEvent hook asked) or inside it. */
export type PauseStage = 'before' | 'node';

/** A node waiting for answers. */
interface Paused {
  sources: string[];
  stage: PauseStage;
  interrupts: Interrupt[];
}

/** The answers a resumed node runs with, until it finishes: for its BeforeNodeCallEvent hooks, and for the node itself. */
export interface Answers {
  before: InterruptResponse[];
  node: InterruptResponse[];
}

/** Everything a run tracks; the small part of it is what the session's state document holds. */
export interface RunState {
  status: Status;
  task: MultiAgentTask;
  results: Record<string, NodeResult>;
  executionOrder: string[];
  /** Each node's places in `executionOrder` (what its session entry stores). */
  places: Record<string, number[]>;
  executionCount: number;
  /** Executions started per node in this run (stored in node entries and `running`, not in the state document). */
  counts: Record<string, number>;
  usage: AccumulatedUsage;
  waiting: Activation[];
  running: Record<string, InFlight>;
  /** Read from a stored run: what the agents of its waiting nodes looked like at its last commit (a resume goes back there). */
  startPoints?: Record<string, InFlight>;
  joins: JoinProgress;
  /** Failed nodes that an edge routed around. */
  handled: string[];
  /** Nodes waiting for a person, by node id. */
  paused: Record<string, Paused>;
  /** Answers given to paused nodes that are resuming, by node id. */
  answers: Record<string, Answers>;
  transitions: NodeTransition[];
  /** Waiting nodes that continue where a stop left their agent instead of starting with their input. */
  continuing: string[];
  /** Identifies the run (stored; part of the idempotency keys of its tool calls). */
  runId: string;
  /** Time spent in earlier processes of this run (resume). */
  elapsedBeforeMs: number;
  failureReason: string | undefined;
  /** What the run's budget had spent when the stored run was written (a resume counts it). */
  budgetSpent?: Partial<BudgetSpend>;
}

/** A fresh run of `task` starting at `entryPoints`. */
export function newRunState(task: MultiAgentTask, entryPoints: readonly string[]): RunState {
  return {
    status: 'executing',
    task,
    results: {},
    executionOrder: [],
    places: {},
    executionCount: 0,
    counts: {},
    usage: emptyUsage(),
    waiting: entryPoints.map((nodeId) => ({ nodeId, sources: [] })),
    running: {},
    joins: new Map(),
    handled: [],
    paused: {},
    answers: {},
    transitions: [],
    continuing: [],
    runId: randomUUID(),
    elapsedBeforeMs: 0,
    failureReason: undefined,
  };
}

/**
 * Puts the nodes a run left running back first among the waiting ones, for a resume: a node a stop
 * left running continues where its agent stood; one a crash cut runs again from its start. Their
 * executions are counted again when they start, so each counts once.
 */
export function requeueRunning(state: RunState): void {
  const rerun = Object.entries(state.running);
  for (const [nodeId] of rerun) {
    state.counts[nodeId] = Math.max(0, (state.counts[nodeId] ?? 1) - 1);
    state.executionCount = Math.max(0, state.executionCount - 1);
  }
  const continuing = rerun.filter(([, f]) => f.continues).map(([nodeId]) => nodeId);
  state.continuing = [...continuing, ...state.continuing.filter((id) => !continuing.includes(id))];
  state.waiting = [...rerun.map(([nodeId, f]) => ({ nodeId, sources: f.sources })), ...state.waiting];
  state.running = {};
  state.status = 'executing';
}

function inFlightOf(f: StoredInFlight): InFlight {
  return {
    sources: [...f.sources],
    messages: f.messages,
    state: f.state,
    interruptState: f.interruptState && (decodeBytes(f.interruptState) as JsonObject),
    ...(f.checkpoint ? { checkpoint: f.checkpoint } : {}),
    ...(f.continues ? { continues: true } : {}),
  };
}

/** Rebuilds a run from its state document, node entries and transitions. */
export function restoreRunState(
  doc: JsonObject,
  nodes: Record<string, JsonObject>,
  transitions: NodeTransition[],
): RunState {
  const d = doc as unknown as StoredState;
  const results: Record<string, NodeResult> = {};
  const order: [number, string][] = [];
  const places: Record<string, number[]> = {};
  const counts: Record<string, number> = {};
  // The state document is the commit point: a node entry written just before a crash, with no state
  // document after it, holds places past the committed order; those executions did not happen.
  const committed = d.orderLength ?? Infinity;
  for (const [id, entry] of Object.entries(nodes)) {
    const e = entry as unknown as StoredNode;
    const kept = e.order.filter((at) => at < committed);
    if (kept.length === 0 && e.order.length > 0) continue;
    results[id] = e.result;
    counts[id] = kept.length === e.order.length ? e.result.executionCount : kept.length;
    places[id] = kept;
    for (const at of kept) order.push([at, id]);
  }
  order.sort((a, b) => a[0] - b[0]);
  for (const id of Object.keys(d.running)) counts[id] = (counts[id] ?? 0) + 1;
  return {
    status: d.status,
    task: decodeBytes(d.task) as MultiAgentTask,
    results,
    executionOrder: order.map(([, id]) => id),
    places,
    executionCount: d.executionCount,
    counts,
    usage: { ...emptyUsage(), ...d.usage },
    waiting: d.waiting.map((a) => ({ nodeId: a.nodeId, sources: [...a.sources] })),
    running: Object.fromEntries(Object.entries(d.running).map(([id, f]) => [id, inFlightOf(f)])),
    startPoints: Object.fromEntries(
      d.waiting.flatMap((a) => (a.checkpoint ? [[a.nodeId, inFlightOf(a)] as const] : [])),
    ),
    joins: new Map(Object.entries(d.joins).map(([k, v]) => [Number(k), v])),
    handled: [...d.handled],
    paused: d.paused ?? {},
    answers: d.answers ?? {},
    transitions,
    continuing: d.waiting.filter((a) => a.continues === true).map((a) => a.nodeId),
    runId: typeof d.runId === 'string' ? d.runId : '',
    elapsedBeforeMs: d.elapsedMs,
    failureReason: d.failureReason,
    ...(d.budget ? { budgetSpent: d.budget } : {}),
  };
}

/** The run state a step snapshot (of the graph's history) describes. */
export function runStateOf(snapshot: StepSnapshot): RunState {
  return restoreRunState(snapshot.state, snapshot.nodes, snapshot.transitions);
}

interface StoredState {
  status: Status;
  /** Absent in documents written before runs had ids. */
  runId?: string;
  task: unknown;
  executionCount: number;
  /** Length of the execution order when this document was written (absent in documents of older versions). */
  orderLength?: number;
  usage: AccumulatedUsage;
  waiting: ({ nodeId: string } & StoredInFlight)[];
  running: Record<string, StoredInFlight>;
  joins: Record<string, string[]>;
  handled: string[];
  paused?: Record<string, Paused>;
  answers?: Record<string, Answers>;
  elapsedMs: number;
  failureReason?: string;
  /** What the run's budget had spent (runs with a budget). */
  budget?: Partial<BudgetSpend>;
}

interface StoredInFlight {
  sources: string[];
  messages?: number;
  state?: JsonObject;
  interruptState?: JsonObject;
  checkpoint?: AgentCheckpoint;
  continues?: true;
}

interface StoredNode {
  result: NodeResult;
  order: number[];
}
