import { decodeBytes, encodeBytes, MultiAgentError, type JsonObject, type JsonValue, type Message } from '@skein/core';

/** What the next node receives: the run's input history and the items since (notes included). */
export interface SwarmConversation {
  inputHistory: Message[];
  items: Message[];
}

/** The handoff a turn ended with, as stored (the Handoff itself is looked up by tool name). */
export interface TurnHandoff {
  toolName: string;
  toolUseId: string;
  /** The validated arguments the model passed. */
  input: JsonValue;
  /** The target's node id. */
  to: string;
}

/** One node's finished turn: what it added to the conversation, its handoff and its agent state. */
export interface SwarmTurn {
  /** 0-based position in the run. */
  seq: number;
  node: string;
  /** The messages the node added in this turn. */
  newItems: Message[];
  handoff: TurnHandoff | undefined;
  /** The member's agent state at the end of the turn. */
  state: JsonObject;
  /** The node ids the run's `nodeHistory` gained since the turn before, this turn's start included (absent in entries of older versions). */
  history?: string[];
}

/** Node entry id of the run's task (its input history). */
export const TASK_ENTRY = 'run.task';
const TURN_PREFIX = 'run.turn.';

/** Node entry id of turn `seq` (zero-padded for listing; parsed numerically). */
export function turnEntryId(seq: number): string {
  return `${TURN_PREFIX}${String(seq).padStart(6, '0')}`;
}

/** True for entry ids the swarm uses for its run log (task and turns), not for node results. */
export function isRunEntry(id: string): boolean {
  return id.startsWith('run.');
}

function fail(what: string): never {
  throw new MultiAgentError(`The stored swarm run is not usable (${what}); clear the session or use another swarm id.`);
}

/** The task as a node entry. */
export function encodeTask(inputHistory: readonly Message[]): JsonObject {
  return encodeBytes({ kind: 'task', messages: inputHistory }) as JsonObject;
}

/** Reads the task entry. */
export function decodeTask(entry: JsonObject | undefined): Message[] {
  if (entry === undefined) fail('the task entry is missing');
  const raw = decodeBytes(entry) as { kind?: unknown; messages?: unknown };
  if (raw.kind !== 'task' || !Array.isArray(raw.messages)) fail('the task entry is malformed');
  return raw.messages as Message[];
}

/** A turn as a node entry (bytes encoded the way sessions store them). */
export function encodeTurn(turn: SwarmTurn): JsonObject {
  const { handoff, ...rest } = turn;
  return encodeBytes({ kind: 'turn', ...rest, ...(handoff ? { handoff } : {}) }) as JsonObject;
}

/** Reads a turn entry. */
function decodeTurn(entry: JsonObject): SwarmTurn {
  const raw = decodeBytes(entry) as Record<string, unknown>;
  const seq = raw['seq'];
  if (
    raw['kind'] !== 'turn' ||
    typeof seq !== 'number' ||
    typeof raw['node'] !== 'string' ||
    !Array.isArray(raw['newItems'])
  ) {
    fail('a turn entry is malformed');
  }
  const handoff = raw['handoff'] as TurnHandoff | undefined;
  if (handoff !== undefined && (typeof handoff.toolName !== 'string' || typeof handoff.to !== 'string'))
    fail(`turn ${seq} has a malformed handoff`);
  const state = raw['state'];
  const history = raw['history'];
  if (history !== undefined && !(Array.isArray(history) && history.every((id) => typeof id === 'string')))
    fail(`turn ${seq} has a malformed node history`);
  return {
    seq,
    node: raw['node'],
    newItems: raw['newItems'] as Message[],
    handoff,
    state: typeof state === 'object' && state !== null && !Array.isArray(state) ? (state as JsonObject) : {},
    ...(history ? { history: history as string[] } : {}),
  };
}

/** The committed turns `0 .. count-1` among the stored entries, in order; throws when one is missing. */
export function committedTurns(entries: Record<string, JsonObject>, count: number): SwarmTurn[] {
  const bySeq = new Map<number, SwarmTurn>();
  for (const [id, entry] of Object.entries(entries)) {
    if (!id.startsWith(TURN_PREFIX)) continue;
    const seq = Number(id.slice(TURN_PREFIX.length));
    if (Number.isInteger(seq) && seq < count) bySeq.set(seq, decodeTurn(entry));
  }
  const turns: SwarmTurn[] = [];
  for (let seq = 0; seq < count; seq++) {
    const turn = bySeq.get(seq);
    if (!turn) fail(`turn ${seq} of ${count} is missing`);
    turns.push(turn);
  }
  return turns;
}
