/**
 * The server's own record of a conversation, kept in the conversation's session next to what the
 * agent or orchestrator stores: who owns it, what it runs, and its turns. A small state document
 * (an orchestrator record of type `skein-server`, written through the session's repository) is the
 * commit point of each turn; each finished turn also gets its own entry (`turn.<seq>`), so writing one
 * more turn costs the same in a long conversation as in a short one.
 */
import {
  SessionCorruptError,
  nowIso,
  type JsonObject,
  type JsonValue,
  type SessionRepository,
  type SessionWrite,
} from '@skein/core';
import type { TargetKind } from '../options.js';
import type { TurnStatus } from '../runs/turn-result.js';

/** The id (and type) of the server's record in a session. */
const RECORD_ID = 'skein-server';

/** What a turn was asked: a message, or answers to interrupts. */
export type TurnPrompt =
  | { kind: 'message'; message: string | JsonObject[] }
  | {
      kind: 'answers';
      /** Keyed by core's interrupt ids. */
      answers: Record<string, JsonValue>;
      /** The tag of the turn whose interrupts they answer (absent for turns stored before tags). */
      answered?: string;
    };

/** The last turn of a conversation. */
export interface CurrentTurn {
  seq: number;
  status: TurnStatus;
  /** 0, then 1, 2... each time the turn is resumed after its process stopped. */
  attempt: number;
  startedAt: string;
  endedAt?: string;
  prompt: TurnPrompt;
  /** Where the agent or orchestrator stood before the turn (tells a cut turn that never started from one that did). */
  before: JsonValue;
  /** The turn's tag, carried by the ids of the interrupts it raises (absent in turns stored before tags). */
  tag?: string;
  /** The AG-UI `runId` the turn was started with (`POST .../agui`): the same id again re-joins it. */
  runId?: string;
}

/** The state document. */
export interface ConversationRecord {
  v: 1;
  kind: TargetKind;
  name: string;
  /** The principal id that created the conversation. */
  owner: string;
  createdAt: string;
  /** The first message, cut to 80 characters. */
  title: string;
  current?: CurrentTurn;
}

/** What a finished turn leaves (`turn.<seq>` entry). */
export interface TurnEntry {
  turn: number;
  status: TurnStatus;
  /** The message's whole text, or a note for answers. */
  prompt: string;
  /** The answers a turn that answered interrupts was given, by interrupt id. */
  answers?: Record<string, JsonValue>;
  text?: string;
  interrupts?: JsonValue[];
  failureReason?: string;
  /** The guardrail that blocked the turn (`status: 'blocked'`): name, where, path, reason. */
  guardrail?: JsonObject;
  startedAt: string;
  endedAt?: string;
}

const KINDS: readonly string[] = ['agents', 'graphs', 'swarms'];

function isRecord(value: unknown): value is ConversationRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    r['v'] === 1 &&
    KINDS.includes(String(r['kind'])) &&
    typeof r['name'] === 'string' &&
    typeof r['owner'] === 'string' &&
    typeof r['createdAt'] === 'string' &&
    (r['current'] === undefined || (typeof r['current'] === 'object' && r['current'] !== null))
  );
}

/** Reads the record of conversation `sessionId`; `undefined` when the server never wrote one. */
export async function readRecord(repo: SessionRepository, sessionId: string): Promise<ConversationRecord | undefined> {
  const stored = await repo.readMultiAgent(sessionId, RECORD_ID);
  if (!stored) return undefined;
  if (!isRecord(stored.state)) {
    throw new SessionCorruptError(
      `The server record of conversation ${sessionId} is not valid; remove the session or restore it from a backup.`,
      { location: `${sessionId}/${RECORD_ID}` },
    );
  }
  return stored.state;
}

/** The entry key of turn `seq`. */
function turnKey(seq: number): string {
  return `turn.${String(seq).padStart(6, '0')}`;
}

/** Reads every finished turn's entry, in order. */
export async function readTurnEntries(repo: SessionRepository, sessionId: string): Promise<TurnEntry[]> {
  const entries = await repo.readNodeEntries(sessionId, RECORD_ID);
  return Object.keys(entries)
    .filter((k) => k.startsWith('turn.'))
    .sort()
    .map((k) => entries[k] as unknown as TurnEntry);
}

/**
 * Stores the record, and before it (the record is the commit point) the entry of a finished turn; in
 * one batch when the store has `writeBatch`. `exists`: the record is stored already (update) or not (create).
 */
export async function writeRecord(
  repo: SessionRepository,
  sessionId: string,
  record: ConversationRecord,
  exists: boolean,
  entry?: TurnEntry,
): Promise<void> {
  const now = nowIso();
  const multiAgent = {
    id: RECORD_ID,
    type: RECORD_ID,
    state: record as unknown as JsonObject,
    created_at: record.createdAt,
    updated_at: now,
  };
  const writes: SessionWrite[] = [];
  if (entry)
    writes.push({
      op: 'putNodeEntry',
      multiAgentId: RECORD_ID,
      nodeId: turnKey(entry.turn),
      entry: entry as unknown as JsonObject,
    });
  writes.push(exists ? { op: 'updateMultiAgent', multiAgent } : { op: 'createMultiAgent', multiAgent });
  if (repo.writeBatch && writes.length > 1) return repo.writeBatch(sessionId, writes);
  if (!exists) return repo.createMultiAgent(sessionId, multiAgent);
  if (entry) await repo.putNodeEntry(sessionId, RECORD_ID, turnKey(entry.turn), entry as unknown as JsonObject);
  await repo.updateMultiAgent(sessionId, multiAgent);
}
