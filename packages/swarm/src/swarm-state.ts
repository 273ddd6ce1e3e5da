import { randomUUID } from 'node:crypto';
import {
  decodeBytes,
  emptyUsage,
  encodeBytes,
  MultiAgentError,
  type AccumulatedUsage,
  type BudgetSpend,
  type Interrupt,
  type InterruptResponse,
  type JsonObject,
  type JsonValue,
  type Message,
  type Status,
} from '@skein/core';

/** A transfer that was decided but whose target has not finished yet. */
interface PendingHandoff {
  from: string;
  to: string;
  toolName: string;
  toolUseId: string;
  /** The validated arguments the model passed. */
  input: JsonValue;
}

/**
 * The active node waits for a person: before it ran (`stage: 'before'`, a BeforeNodeCallEvent hook
 * asked) or inside its turn (`stage: 'node'`); or a stop (its budget, a cancellation) left its turn
 * unfinished (`stage: 'stopped'`, no interrupts: a resume goes on where it stopped). With what its
 * turn had added so far, its agent state and the agent's pending turn. Kept until the resumed turn is
 * committed, so a crash during the resumed turn resumes from the same point.
 */
export interface SwarmPause {
  node: string;
  stage: 'before' | 'node' | 'stopped';
  interrupts: Interrupt[];
  /** The messages the node's turn added before it paused. */
  items: Message[];
  agentState: JsonObject;
  interruptState: JsonObject | undefined;
}

/**
 * The swarm's small run state, stored as its session state after every node and transfer. It holds
 * bookkeeping only (bounded per step): the conversation and the shared context are rebuilt on resume
 * by replaying the task and the committed turns, which are stored once each as node entries.
 */
export interface SwarmRunState {
  status: Status;
  /** The node to run next (or running now). */
  current: string;
  pendingHandoff: PendingHandoff | undefined;
  /** Node ids in execution order (a node re-run after a crash appears once per start). */
  nodeHistory: string[];
  handoffCount: number;
  usage: AccumulatedUsage;
  /** Run time before this process took over, in ms. */
  elapsedMs: number;
  failureReason: string | undefined;
  /** How many turn entries belong to the run (the commit point: later ones are ignored on resume). */
  turns: number;
  /** Repair turns given to members whose answer announced a transfer they did not make. */
  repairTurns: number;
  /** Where the active node waits for (or resumes with) answers. */
  pause: SwarmPause | undefined;
  /** Answers given to the paused node, until its turn is committed. */
  answers: { before: InterruptResponse[]; node: InterruptResponse[] } | undefined;
  /** What the run's budget had spent at the last commit (runs with a budget; a resume counts it). */
  budget?: Partial<BudgetSpend>;
  /** Identifies the run (stored; part of the idempotency keys of its tool calls). */
  runId: string;
}

const VERSION = 2;

/** A fresh run state starting at `entry`. */
export function freshState(entry: string): SwarmRunState {
  return {
    status: 'executing',
    current: entry,
    pendingHandoff: undefined,
    nodeHistory: [],
    handoffCount: 0,
    usage: emptyUsage(),
    elapsedMs: 0,
    failureReason: undefined,
    turns: 0,
    repairTurns: 0,
    pause: undefined,
    answers: undefined,
    runId: randomUUID(),
  };
}

/**
 * The state as session JSON (bytes encoded the way sessions store them). `historyFrom`: the state
 * document keeps `nodeHistory` from there on (`nodeHistoryFrom`), the committed turns hold the ids
 * before it, so that a step's state document does not grow with the run (see `withTurnHistory`).
 */
export function encodeState(state: SwarmRunState, historyFrom = 0): JsonObject {
  const { pendingHandoff, failureReason, pause, answers, nodeHistory, ...rest } = state;
  const doc = {
    version: VERSION,
    ...rest,
    nodeHistory: nodeHistory.slice(historyFrom),
    ...(historyFrom > 0 ? { nodeHistoryFrom: historyFrom } : {}),
    ...(pendingHandoff ? { pendingHandoff } : {}),
    ...(failureReason !== undefined ? { failureReason } : {}),
    ...(pause ? { pause } : {}),
    ...(answers ? { answers } : {}),
  };
  return encodeBytes(doc) as JsonObject;
}

function fail(what: string): never {
  throw new MultiAgentError(
    `The stored swarm state is not usable (${what}); clear the session or use another swarm id.`,
  );
}

/** True when a stored state document describes a run that had finished (whatever version wrote it). */
export function isFinishedDoc(doc: JsonObject): boolean {
  return doc['status'] === 'completed' || doc['status'] === 'failed';
}

/** Reads a stored state; throws `MultiAgentError` when it is not one this version wrote. */
export function decodeState(doc: JsonObject): SwarmRunState {
  if (doc['version'] !== VERSION) {
    fail(
      `version ${JSON.stringify(doc['version'])}, expected ${VERSION}; an unfinished run of an earlier @skein/swarm cannot be resumed by this one`,
    );
  }
  const raw = decodeBytes(doc) as Record<string, unknown>;
  if (typeof raw['current'] !== 'string') fail('no current node');
  if (typeof raw['status'] !== 'string') fail('no status');
  const turns = raw['turns'];
  if (typeof turns !== 'number' || !Number.isInteger(turns) || turns < 0) fail('no count of committed turns');
  return {
    status: raw['status'] as Status,
    current: raw['current'],
    pendingHandoff: (raw['pendingHandoff'] as PendingHandoff | undefined) ?? undefined,
    nodeHistory: (raw['nodeHistory'] as string[] | undefined) ?? [],
    handoffCount: (raw['handoffCount'] as number | undefined) ?? 0,
    usage: { ...emptyUsage(), ...(raw['usage'] as Partial<AccumulatedUsage> | undefined) },
    elapsedMs: (raw['elapsedMs'] as number | undefined) ?? 0,
    failureReason: raw['failureReason'] as string | undefined,
    turns,
    repairTurns: typeof raw['repairTurns'] === 'number' ? raw['repairTurns'] : 0,
    pause: (raw['pause'] as SwarmPause | undefined) ?? undefined,
    answers: (raw['answers'] as SwarmRunState['answers']) ?? undefined,
    runId: typeof raw['runId'] === 'string' ? raw['runId'] : '',
    ...(typeof raw['budget'] === 'object' && raw['budget'] !== null
      ? { budget: raw['budget'] as Partial<BudgetSpend> }
      : {}),
  };
}

/**
 * Puts back the whole `nodeHistory` of a stored state whose document keeps only its end
 * (`nodeHistoryFrom`): the ids the committed turns before it hold come first. Throws
 * `MultiAgentError` when they do not add up. A document without `nodeHistoryFrom` holds all of it.
 */
export function withTurnHistory(doc: JsonObject, state: SwarmRunState, turns: readonly { history?: string[] }[]): void {
  const from = doc['nodeHistoryFrom'];
  if (typeof from !== 'number' || from === 0) return;
  const before: string[] = [];
  for (const turn of turns) {
    if (before.length >= from) break;
    before.push(...(turn.history ?? []));
  }
  if (before.length !== from) fail(`its turns hold ${before.length} node history entries before the state's ${from}`);
  state.nodeHistory = [...before, ...state.nodeHistory];
}
