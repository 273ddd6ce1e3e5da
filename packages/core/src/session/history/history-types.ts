import type { JsonObject } from '../../types/json.js';
import type { NodeTransition, SessionMessage } from '../session-types.js';

/** How much of an orchestrator's past its session keeps (Graph `setHistory`, Swarm `history`). */
export interface HistoryOptions {
  /**
   * `'all'` (default): every committed step of every run; a number N: the steps of the last N runs
   * (the current run always whole); `'none'`: only the latest step, as before time travel.
   */
  keep?: 'all' | 'none' | number;
}

/** A member agent as a step left it: where its stored history ended and its record then. */
export interface AgentAtStep {
  /** The message id after its last message at that step (messages `0 .. nextMessageId - 1`). */
  nextMessageId: number;
  /** Its state, conversation-manager state and waiting turn (`_internal_state`) at that step. */
  record: { state: JsonObject; conversation_manager_state: JsonObject; _internal_state?: JsonObject };
}

/** One committed step as its history keeps it. */
export interface StoredStep {
  /** Its number in the session: 0, 1, 2... over all runs of the orchestrator (a fork goes on from its fork point). */
  step: number;
  /** The run it belongs to: 1, 2... in the session. */
  run: number;
  /** When it was committed (ISO 8601). */
  at: string;
  /** The orchestrator's state document as this step committed it. */
  state: JsonObject;
  /** The transitions that made the step, numbered as in the run's history. */
  transitions: NodeTransition[];
  /** The node entries the step wrote (by entry id). */
  nodes: Record<string, JsonObject>;
  /** Member agents the step changed (every member at a run's first step), by stored agent id. */
  agents: Record<string, AgentAtStep>;
}

/** A run of an orchestrator, as its history keeps it. */
export interface StoredRun {
  run: number;
  firstStep: number;
  /** The last committed step (the current run: the step of its state document). */
  lastStep: number;
  /** True for the run the orchestrator's state document holds now. */
  current: boolean;
  /** Where the run came from when it is a fork. */
  forkedFrom?: ForkOrigin;
}

/** What a fork records about where it came from. */
export interface ForkOrigin {
  sessionId: string;
  orchestratorId: string;
  step: number;
  /** When the fork was made. */
  at: string;
  /** What was edited (by the orchestrator's `fork`), in words. */
  edits: string[];
}

/** Everything of an orchestrator as it stood at one step: what `stateAt` and `fork` start from. */
export interface StepSnapshot {
  step: number;
  run: number;
  at: string;
  /** The state document of that step. */
  state: JsonObject;
  /** Each node entry as it was at that step (the latest write of each up to it, in the same run). */
  nodes: Record<string, JsonObject>;
  /** The run's transitions up to and including that step. */
  transitions: NodeTransition[];
  /** Each member agent at that step, with its stored messages then (`0 .. nextMessageId - 1`). */
  agents: Record<string, AgentAtStep & { rows: SessionMessage[] }>;
  /** Where the session came from, when it is a fork. */
  forkedFrom?: ForkOrigin;
}
