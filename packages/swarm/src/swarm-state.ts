import { decodeBytes, emptyUsage, encodeBytes, MultiAgentError, type AccumulatedUsage, type JsonObject, type JsonValue, type Message, type Status } from '@skein/core';

/** A transfer that was decided but whose target has not finished yet. */
export interface PendingHandoff {
  from: string;
  to: string;
  toolName: string;
  toolUseId: string;
  /** The validated arguments the model passed. */
  input: JsonValue;
}

/** What the next node receives: the run's input history and the items since (notes included). */
export interface SwarmConversation {
  inputHistory: Message[];
  items: Message[];
}

/** Everything a swarm run needs to continue; stored as the swarm's session state. */
export interface SwarmRunState {
  status: Status;
  /** The node to run next (or running now). */
  current: string;
  conversation: SwarmConversation;
  pendingHandoff: PendingHandoff | undefined;
  /** Node ids in execution order (a node re-run after a crash appears once per start). */
  nodeHistory: string[];
  handoffCount: number;
  /** Context shared through transfers, by the node that shared it. */
  sharedContext: Record<string, JsonObject>;
  usage: AccumulatedUsage;
  /** Run time before this process took over, in ms. */
  elapsedMs: number;
  failureReason: string | undefined;
}

const VERSION = 1;

/** A fresh run state starting at `entry` with `task`. */
export function freshState(entry: string, task: Message[]): SwarmRunState {
  return {
    status: 'executing',
    current: entry,
    conversation: { inputHistory: task, items: [] },
    pendingHandoff: undefined,
    nodeHistory: [],
    handoffCount: 0,
    sharedContext: {},
    usage: emptyUsage(),
    elapsedMs: 0,
    failureReason: undefined,
  };
}

/** The state as session JSON (bytes encoded the way sessions store them). */
export function encodeState(state: SwarmRunState): JsonObject {
  const { pendingHandoff, failureReason, ...rest } = state;
  const doc = {
    version: VERSION,
    ...rest,
    ...(pendingHandoff ? { pendingHandoff } : {}),
    ...(failureReason !== undefined ? { failureReason } : {}),
  };
  return encodeBytes(doc) as JsonObject;
}

function fail(what: string): never {
  throw new MultiAgentError(`The stored swarm state is not usable (${what}); clear the session or use another swarm id.`);
}

/** Reads a stored state; throws `MultiAgentError` when it is not one this version wrote. */
export function decodeState(doc: JsonObject): SwarmRunState {
  if (doc['version'] !== VERSION) fail(`version ${JSON.stringify(doc['version'])}, expected ${VERSION}`);
  const raw = decodeBytes(doc) as Record<string, unknown>;
  if (typeof raw['current'] !== 'string') fail('no current node');
  if (typeof raw['status'] !== 'string') fail('no status');
  const conversation = raw['conversation'] as SwarmConversation | undefined;
  if (!conversation || !Array.isArray(conversation.inputHistory) || !Array.isArray(conversation.items)) fail('no conversation');
  return {
    status: raw['status'] as Status,
    current: raw['current'],
    conversation,
    pendingHandoff: (raw['pendingHandoff'] as PendingHandoff | undefined) ?? undefined,
    nodeHistory: (raw['nodeHistory'] as string[] | undefined) ?? [],
    handoffCount: (raw['handoffCount'] as number | undefined) ?? 0,
    sharedContext: (raw['sharedContext'] as Record<string, JsonObject> | undefined) ?? {},
    usage: { ...emptyUsage(), ...(raw['usage'] as Partial<AccumulatedUsage> | undefined) },
    elapsedMs: (raw['elapsedMs'] as number | undefined) ?? 0,
    failureReason: raw['failureReason'] as string | undefined,
  };
}
