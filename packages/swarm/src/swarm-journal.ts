/**
 * The swarm's part of core's run journal (`swarmPart`): how a step of its history reads, how it stood
 * at a step (its turns replayed, no model called), and its fork (the edit schema, how an edit applies,
 * what each member did after a step). History, time travel and forks themselves are core's.
 */
import type {
  HistoryLine,
  JsonObject,
  Message,
  NodeResult,
  NodeTransition,
  RunFork,
  RunForkOptions,
  RunPart,
  Status,
  StepSnapshot,
  StoredStep,
} from '@skein/core';
import type { HandoffRunSettings } from '@skein/handoffs';
import { applySwarmEdit, type SwarmForkEdit } from './fork-edit.js';
import { replayTurns } from './replay.js';
import type { SwarmMembers } from './swarm-members.js';
import { storedAt } from './stored-run.js';
import { decodeState, withTurnHistory, type SwarmRunState } from './swarm-state.js';
import { committedTurns } from './swarm-turn.js';

/** One committed step of a swarm run, as `swarm.history()` lists it. */
export interface SwarmHistoryStep extends HistoryLine {
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

/** What `swarm.fork()` takes. */
export type SwarmForkOptions = RunForkOptions<SwarmForkEdit>;

/** A fork made by `swarm.fork()`: replay it with `recording.model(member)` and `recording.guard(swarm.nodes)`. */
export type SwarmFork = RunFork;

type Line = Omit<SwarmHistoryStep, keyof HistoryLine>;

function lineOf(transitions: NodeTransition[], state: SwarmRunState): Line {
  return {
    status: state.status,
    transitions,
    current: state.current,
    nodeHistory: [...state.nodeHistory],
    turns: state.turns,
    ...(state.pause ? { paused: state.pause.node } : {}),
  };
}

/** A step of the history: its state document, its node history rebuilt from the run's turns so far. */
function swarmLine(
  step: StoredStep,
  runNodes: ReadonlyMap<string, JsonObject>,
): Omit<SwarmHistoryStep, keyof HistoryLine> {
  const state = decodeState(step.state);
  withTurnHistory(step.state, state, committedTurns(Object.fromEntries(runNodes), state.turns));
  return lineOf(step.transitions, state);
}

/** The swarm as it stood at `snapshot`: its turns replayed (no model is called). */
async function swarmStepState(
  snapshot: StepSnapshot,
  members: SwarmMembers,
  settings: HandoffRunSettings,
): Promise<Omit<SwarmStepState, keyof HistoryLine>> {
  const { state, results, task, turns } = storedAt(snapshot, members);
  const replayed = await replayTurns(task, turns, members, settings, {});
  return {
    ...lineOf(snapshot.transitions, state),
    task,
    results,
    conversation: replayed.run.conversation,
    sharedContext: replayed.run.sharedContext,
    members: Object.fromEntries(replayed.members),
  };
}

/** The swarm's part: its history lines, its state at a step, its fork's edit schema and edit, and what the members did after a fork point. */
export function swarmPart(
  members: SwarmMembers,
  settings: HandoffRunSettings,
): RunPart<Line, Omit<SwarmStepState, keyof HistoryLine>, SwarmForkEdit> {
  return {
    line: swarmLine,
    stateAt: (snapshot) => swarmStepState(snapshot, members, settings),
    schema: {
      fields: {
        results: { kind: 'text' },
        lastMessage: { kind: 'message' },
        toolResults: { kind: 'toolResults' },
        sharedContext: { kind: 'object' },
        agentState: { kind: 'object' },
        task: { kind: 'messages' },
        next: { kind: 'part' },
      },
      part: 'member',
      id: 'member name',
      orchestrator: 'swarm',
      ids: members.ids,
      has: (id) => members.has(id),
      isAgent: () => true,
    },
    apply: (snapshot, edit) => applySwarmEdit(snapshot, edit, members),
    // The messages of the turns committed later in the run, less what a paused turn had made before it waited.
    later: (from, to) => {
      const then = storedAt(from, members).state;
      return storedAt(to, members)
        .turns.filter((t) => t.seq >= then.turns)
        .map((turn) => {
          const pause = then.pause;
          if (turn.seq !== then.turns || pause?.node !== turn.node) return [turn.node, turn.newItems] as const;
          const made = pause.items.filter((m) => m.role === 'assistant').length + (pause.interruptState ? 1 : 0);
          let skipped = 0;
          return [turn.node, turn.newItems.filter((m) => m.role !== 'assistant' || ++skipped > made)] as const;
        });
    },
  };
}
