import {
  type ForkOrigin,
  type JsonObject,
  type Message,
  type NodeResult,
  type NodeTransition,
  type OrchestratorHistory,
  type Status,
  type StepSnapshot,
} from '@skein/core';
import type { HandoffRunSettings } from '@skein/handoffs';
import { replayTurns } from './replay.js';
import type { SwarmMembers } from './swarm-members.js';
import { readStoredRun } from './stored-run.js';
import { decodeState, withTurnHistory, type SwarmRunState } from './swarm-state.js';
import { committedTurns } from './swarm-turn.js';

/** One committed step of a swarm run, as `swarm.history()` lists it. */
export interface SwarmHistoryStep {
  /** Its number in the session (0, 1, 2... over every run of this swarm; give it to `stateAt` and `fork`). */
  step: number;
  run: number;
  at: string;
  status: Status;
  /** The transitions the step made (a handoff, a pause, the end...). */
  transitions: NodeTransition[];
  /** The member that runs next (or was running). */
  current: string;
  /** Members in the order they ran so far. */
  nodeHistory: string[];
  /** Turns committed so far. */
  turns: number;
  /** The member waiting for a person, if any. */
  paused?: string;
  forkedFrom?: ForkOrigin;
}

/** A swarm as it stood at one step (`swarm.stateAt(step)`). */
export interface SwarmStepState extends Omit<SwarmHistoryStep, 'transitions'> {
  /** The run's task (its input history). */
  task: Message[];
  /** Each member's latest result at that step. */
  results: Record<string, NodeResult>;
  /** What the member that runs next receives: the input history and the items passed on since. */
  conversation: { inputHistory: Message[]; items: Message[] };
  sharedContext: Record<string, JsonObject>;
  /** The run's transitions up to and including the step. */
  transitions: NodeTransition[];
  /** Each member that finished a turn: its messages and agent state after its latest turn. */
  members: Record<string, { messages: Message[]; state: JsonObject }>;
}

function lineOf(step: { state: JsonObject; transitions: NodeTransition[] }, state: SwarmRunState) {
  return {
    status: state.status,
    transitions: step.transitions,
    current: state.current,
    nodeHistory: [...state.nodeHistory],
    turns: state.turns,
    ...(state.pause ? { paused: state.pause.node } : {}),
  };
}

/** Every kept step of the swarm's runs in its session, in order (each step's node history rebuilt from the run's turns so far). */
export async function swarmHistory(history: OrchestratorHistory): Promise<SwarmHistoryStep[]> {
  const runs = await history.runs();
  let nodes: Record<string, JsonObject> = {};
  let run = -1;
  return (await history.steps()).map((step) => {
    if (step.run !== run) {
      nodes = {};
      run = step.run;
    }
    Object.assign(nodes, step.nodes);
    const state = decodeState(step.state);
    withTurnHistory(step.state, state, committedTurns(nodes, state.turns));
    const forkedFrom = runs.find((r) => r.run === step.run && r.firstStep === step.step)?.forkedFrom;
    return {
      step: step.step,
      run: step.run,
      at: step.at,
      ...lineOf(step, state),
      ...(forkedFrom ? { forkedFrom } : {}),
    };
  });
}

/** The run at a snapshot: its state, task, committed turns and member results. */
export function storedAt(snapshot: StepSnapshot, members: SwarmMembers) {
  const stored = readStoredRun(snapshot.state, snapshot.nodes, members);
  return { ...stored, task: stored.task ?? [] };
}

/** The swarm as it stood at `snapshot`: its turns replayed (no model is called). */
export async function swarmStepState(
  snapshot: StepSnapshot,
  members: SwarmMembers,
  settings: HandoffRunSettings,
): Promise<SwarmStepState> {
  const { state, results, task, turns } = storedAt(snapshot, members);
  const replayed = await replayTurns(task, turns, members, settings, {});
  return {
    step: snapshot.step,
    run: snapshot.run,
    at: snapshot.at,
    ...lineOf(snapshot, state),
    task,
    results,
    conversation: replayed.run.conversation,
    sharedContext: replayed.run.sharedContext,
    members: Object.fromEntries(replayed.members),
    ...(snapshot.forkedFrom ? { forkedFrom: snapshot.forkedFrom } : {}),
  };
}
