import {
  decodeBytes,
  type ForkOrigin,
  type JsonObject,
  type Message,
  type MultiAgentTask,
  type NodeResult,
  type NodeTransition,
  type OrchestratorHistory,
  type Status,
  type StepSnapshot,
} from '@skein/core';
import { restoreRunState, type RunState } from './run-state.js';

/** One committed step of a graph run, as `graph.history()` lists it. */
export interface GraphHistoryStep {
  /** Its number in the session (0, 1, 2... over every run of this graph; give it to `stateAt` and `fork`). */
  step: number;
  /** The run it belongs to (1, 2... in the session). */
  run: number;
  /** When it was committed. */
  at: string;
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
  /** Where the run came from, when it is a fork. */
  forkedFrom?: ForkOrigin;
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

/** The node sets of a run state. */
function nodeSets(state: RunState): Pick<GraphHistoryStep, 'running' | 'waiting' | 'paused' | 'completed' | 'failed'> {
  const done = Object.entries(state.results).filter(([id]) => !state.paused[id]);
  return {
    running: Object.keys(state.running),
    waiting: [...new Set(state.waiting.map((a) => a.nodeId))],
    paused: Object.keys(state.paused),
    completed: done.filter(([, r]) => r.status === 'completed').map(([id]) => id),
    failed: done.filter(([, r]) => r.status === 'failed').map(([id]) => id),
  };
}

/** Every kept step of the graph's runs in its session, in order (read from each step's state document and node entries). */
export async function graphHistory(history: OrchestratorHistory): Promise<GraphHistoryStep[]> {
  const runs = await history.runs();
  const out: GraphHistoryStep[] = [];
  let statuses = new Map<string, unknown>();
  let run = -1;
  for (const step of await history.steps()) {
    if (step.run !== run) {
      statuses = new Map();
      run = step.run;
    }
    for (const [id, entry] of Object.entries(step.nodes))
      statuses.set(id, (entry['result'] as JsonObject | undefined)?.['status']);
    const doc = step.state;
    const paused = Object.keys((doc['paused'] as JsonObject | undefined) ?? {});
    const done = [...statuses].filter(([id]) => !paused.includes(id));
    const forkedFrom = runs.find((r) => r.run === step.run && r.firstStep === step.step)?.forkedFrom;
    out.push({
      step: step.step,
      run: step.run,
      at: step.at,
      status: doc['status'] as Status,
      transitions: step.transitions,
      running: Object.keys((doc['running'] as JsonObject | undefined) ?? {}),
      waiting: [...new Set(((doc['waiting'] as { nodeId: string }[] | undefined) ?? []).map((a) => a.nodeId))],
      paused,
      completed: done.filter(([, s]) => s === 'completed').map(([id]) => id),
      failed: done.filter(([, s]) => s === 'failed').map(([id]) => id),
      ...(forkedFrom ? { forkedFrom } : {}),
    });
  }
  return out;
}

/** The run state a step snapshot describes. */
export function runStateOf(snapshot: StepSnapshot): RunState {
  return restoreRunState(snapshot.state, snapshot.nodes, snapshot.transitions);
}

/** The graph `graphId` as it stood at `snapshot`. */
export function graphStepState(snapshot: StepSnapshot, graphId: string): GraphStepState {
  const state = runStateOf(snapshot);
  const agents: GraphStepState['agents'] = {};
  const prefix = `${graphId}.`;
  for (const [storeId, agent] of Object.entries(snapshot.agents)) {
    if (!storeId.startsWith(prefix)) continue;
    const messages = agent.rows.map((r) => decodeBytes(r.redact_message ?? r.message) as Message);
    // A turn waiting for answers keeps its message in the agent's record until it is answered.
    const waiting = (agent.record._internal_state?.['interrupt_state'] as { message?: unknown } | undefined)?.message;
    if (waiting) messages.push(decodeBytes(waiting) as Message);
    agents[storeId.slice(prefix.length)] = { messages, state: agent.record.state };
  }
  return {
    step: snapshot.step,
    run: snapshot.run,
    at: snapshot.at,
    status: state.status,
    task: state.task,
    results: state.results,
    executionOrder: state.executionOrder,
    transitions: snapshot.transitions,
    ...nodeSets(state),
    agents,
    ...(snapshot.forkedFrom ? { forkedFrom: snapshot.forkedFrom } : {}),
  };
}
