/**
 * The graph's part of core's run journal (`graphPart`): how a step of its history reads, how it stood
 * at a step, and its fork (the edit schema, how an edit applies, what each node agent did after a
 * step). History, time travel and forks themselves are core's.
 */
import {
  isAgent,
  decodeBytes,
  type HistoryLine,
  type JsonObject,
  type Message,
  type MultiAgentTask,
  type NodeResult,
  type NodeTransition,
  type RunFork,
  type RunForkOptions,
  type RunPart,
  type Status,
  type StepSnapshot,
  type StoredStep,
} from '@skein/core';
import { applyGraphEdit, type GraphForkEdit } from './fork-edit.js';
import type { GraphConfig } from './graph-types.js';
import { runStateOf } from './run-state.js';

/** One committed step of a graph run, as `graph.history()` lists it. */
export interface GraphHistoryStep extends HistoryLine {
  /** The run's status after the step. */
  status: Status;
  /** The transitions the step made (a node's edges, a pause, the end...). */
  transitions: NodeTransition[];
  /** Nodes running, waiting to run, waiting for a person, and done (completed or failed) after the step. */
  running: string[];
  waiting: string[];
  paused: string[];
  completed: string[];
  failed: string[];
}

/** A graph as it stood at one step (`graph.stateAt(step)`). */
export interface GraphStepState extends Omit<GraphHistoryStep, 'transitions'> {
  task: MultiAgentTask;
  /** Each node's latest result at that step. */
  results: Record<string, NodeResult>;
  executionOrder: string[];
  /** The run's transitions up to and including the step. */
  transitions: NodeTransition[];
  /** Each agent node's messages (its stored history, redactions applied, then a turn waiting for answers) and state at that step. */
  agents: Record<string, { messages: Message[]; state: JsonObject }>;
}

/** What `graph.fork()` takes. */
export type GraphForkOptions = RunForkOptions<GraphForkEdit>;

/** A fork made by `graph.fork()`: replay it with `recording.model(nodeId)` and `recording.guard(graph.nodes)`. */
export type GraphFork = RunFork;

type Line = Omit<GraphHistoryStep, keyof HistoryLine>;
type Sets = Pick<GraphHistoryStep, 'running' | 'waiting' | 'paused' | 'completed' | 'failed'>;

/** Done nodes (not paused) by status: completed and failed. */
function done(
  statuses: Iterable<readonly [string, unknown]>,
  paused: readonly string[],
): Pick<Sets, 'completed' | 'failed'> {
  const settled = [...statuses].filter(([id]) => !paused.includes(id));
  return {
    completed: settled.filter(([, s]) => s === 'completed').map(([id]) => id),
    failed: settled.filter(([, s]) => s === 'failed').map(([id]) => id),
  };
}

/** A step of the history, read from its state document and the node entries its run wrote so far. */
function graphLine(
  step: StoredStep,
  runNodes: ReadonlyMap<string, JsonObject>,
): Omit<GraphHistoryStep, keyof HistoryLine> {
  const doc = step.state;
  const paused = Object.keys((doc['paused'] as JsonObject | undefined) ?? {});
  const statuses = [...runNodes].map(
    ([id, entry]) => [id, (entry['result'] as JsonObject | undefined)?.['status']] as const,
  );
  return {
    status: doc['status'] as Status,
    transitions: step.transitions,
    running: Object.keys((doc['running'] as JsonObject | undefined) ?? {}),
    waiting: [...new Set(((doc['waiting'] as { nodeId: string }[] | undefined) ?? []).map((a) => a.nodeId))],
    paused,
    ...done(statuses, paused),
  };
}

/** Graph `graphId` as it stood at `snapshot` (its step's numbers are core's). */
function graphStepState(snapshot: StepSnapshot, graphId: string): Omit<GraphStepState, keyof HistoryLine> {
  const state = runStateOf(snapshot);
  const agents: GraphStepState['agents'] = {};
  for (const [key, agent] of membersOf(snapshot, graphId)) {
    const messages = agent.rows.map((r) => decodeBytes(r.redact_message ?? r.message) as Message);
    // A turn waiting for answers keeps its message in the agent's record until it is answered.
    const waiting = (agent.record._internal_state?.['interrupt_state'] as { message?: unknown } | undefined)?.message;
    if (waiting) messages.push(decodeBytes(waiting) as Message);
    agents[key] = { messages, state: agent.record.state };
  }
  const paused = Object.keys(state.paused);
  return {
    status: state.status,
    task: state.task,
    results: state.results,
    executionOrder: state.executionOrder,
    transitions: snapshot.transitions,
    running: Object.keys(state.running),
    waiting: [...new Set(state.waiting.map((a) => a.nodeId))],
    paused,
    ...done(
      Object.entries(state.results).map(([id, r]) => [id, r.status] as const),
      paused,
    ),
    agents,
  };
}

/** The node agents of a snapshot, by node id. */
function membersOf(snapshot: StepSnapshot, graphId: string): [string, StepSnapshot['agents'][string]][] {
  const prefix = `${graphId}.`;
  return Object.entries(snapshot.agents).flatMap(([storeId, agent]) =>
    storeId.startsWith(prefix) ? [[storeId.slice(prefix.length), agent] as [string, typeof agent]] : [],
  );
}

/** The graph's part: its history lines, its state at a step, its fork's edit schema and edit, and what each node agent did after a fork point. */
export function graphPart(config: GraphConfig): RunPart<Line, Omit<GraphStepState, keyof HistoryLine>, GraphForkEdit> {
  const ids = [...config.nodes.keys()];
  return {
    line: graphLine,
    stateAt: (snapshot) => graphStepState(snapshot, config.id),
    schema: {
      fields: {
        results: { kind: 'text' },
        lastMessage: { kind: 'message', agents: true },
        toolResults: { kind: 'toolResults' },
        task: { kind: 'task' },
        agentState: { kind: 'object', agents: true },
        next: { kind: 'parts' },
      },
      part: 'node',
      id: 'node id',
      orchestrator: 'graph',
      ids,
      has: (id) => config.nodes.has(id),
      isAgent: (id) => isAgent(config.nodes.get(id)?.target),
    },
    apply: (snapshot, edit, history) => applyGraphEdit(snapshot, edit, config, history),
    // A turn waiting for answers then had already made its model call: its message is stored at `nextMessageId` later.
    later: (from, to) =>
      membersOf(to, config.id).map(([key, agent]) => {
        const then = from.agents[`${config.id}.${key}`];
        const start = (then?.nextMessageId ?? 0) + (then?.record._internal_state?.['interrupt_state'] ? 1 : 0);
        return [key, agent.rows.filter((r) => r.message_id >= start).map((r) => r.message)] as const;
      }),
  };
}
