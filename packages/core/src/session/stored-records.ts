import { SessionCorruptError, SessionNotFoundError } from '../errors/session-errors.js';
import type { JsonObject } from '../types/json.js';
import { encodedJson, parseSessionData } from './session-codec.js';
import type { NodeTransition, Session, SessionAgent, SessionMessage, SessionMultiAgent } from './session-types.js';

/**
 * Reading the records a store keeps as JSON text (an S3 object, a database row): each parser checks
 * the fields skein relies on, so a hand-edited or cut record is a `SessionCorruptError` naming it,
 * not a crash later. One set of parsers for every store; each says how its errors name a record.
 */

/** The error for a record at `location` with `problem` (the store's wording: what to fix, and how). */
export type CorruptRecord = (location: string, problem: string) => SessionCorruptError;

/** The parsers of one store's records. `numberedBy`: what names a message's id or a transition's seq (`row`, `key`). */
export interface StoredRecordParsers {
  session(text: unknown, location: string): Session;
  /** Missing state objects read as empty. */
  agent(text: unknown, location: string): SessionAgent;
  /** Its `message_id` must be `expectedId`. */
  message(text: unknown, location: string, expectedId: number): SessionMessage;
  multiAgent(text: unknown, location: string): SessionMultiAgent;
  nodeEntry(text: unknown, location: string): JsonObject;
  /** Its `seq` must be `seq`. */
  transition(text: unknown, location: string, seq: number): NodeTransition;
}

/** A record as stored text: bytes encoded as Strands Agents writes them, no indentation. */
export function recordText(value: unknown): string {
  return encodedJson(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parsers of a store whose errors are made by `corrupt` and whose record numbers come from its `numberedBy`. */
export function storedRecordParsers(corrupt: CorruptRecord, numberedBy: string): StoredRecordParsers {
  const object = (text: unknown, location: string): Record<string, unknown> => {
    if (typeof text !== 'string') throw corrupt(location, 'is not text');
    const value = parseSessionData<unknown>(text, location);
    if (!isObject(value)) throw corrupt(location, 'is not a JSON object');
    return value;
  };
  const requireString = (doc: Record<string, unknown>, field: string, location: string): void => {
    if (typeof doc[field] !== 'string') throw corrupt(location, `has no string field "${field}"`);
  };
  const optionalObject = (doc: Record<string, unknown>, field: string, location: string): void => {
    if (doc[field] !== undefined && !isObject(doc[field]))
      throw corrupt(location, `has a "${field}" that is not an object`);
  };
  return {
    session(text, location) {
      const doc = object(text, location);
      requireString(doc, 'session_id', location);
      const type = doc['session_type'] === 'MULTI_AGENT' ? 'MULTI_AGENT' : 'AGENT';
      return { ...doc, session_type: type } as unknown as Session;
    },
    agent(text, location) {
      const doc = object(text, location);
      requireString(doc, 'agent_id', location);
      optionalObject(doc, 'state', location);
      optionalObject(doc, 'conversation_manager_state', location);
      const state = doc['state'] ?? {};
      return { ...doc, state, conversation_manager_state: doc['conversation_manager_state'] ?? {} } as SessionAgent;
    },
    message(text, location, expectedId) {
      const doc = object(text, location);
      const message = doc['message'];
      if (!isObject(message) || typeof message['role'] !== 'string' || !Array.isArray(message['content']))
        throw corrupt(location, 'has no valid "message" (an object with "role" and a "content" array)');
      if (doc['message_id'] !== expectedId) {
        const stored = JSON.stringify(doc['message_id']);
        throw corrupt(location, `has message_id ${stored} but its ${numberedBy} says ${expectedId}`);
      }
      return { ...doc, redact_message: doc['redact_message'] ?? null } as unknown as SessionMessage;
    },
    multiAgent(text, location) {
      const doc = object(text, location);
      requireString(doc, 'id', location);
      if (!isObject(doc['state'])) throw corrupt(location, 'has no "state" object');
      return doc as unknown as SessionMultiAgent;
    },
    nodeEntry(text, location) {
      return object(text, location) as JsonObject;
    },
    transition(text, location, seq) {
      const doc = object(text, location);
      if (doc['seq'] !== seq)
        throw corrupt(location, `has seq ${JSON.stringify(doc['seq'])} but its ${numberedBy} says ${seq}`);
      return doc as unknown as NodeTransition;
    },
  };
}

/** A message id, transition seq, offset or limit: an integer >= 0 (else `SessionNotFoundError`, before anything is touched). */
export function checkIndex(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new SessionNotFoundError(
      `Invalid ${what} ${JSON.stringify(value)}: message ids, transition numbers, offsets and limits are integers >= 0.`,
    );
  return value;
}

/**
 * Checks that stored records are numbered `offset`, `offset + 1`, ... (message ids, transition seqs):
 * a gap is a `SessionCorruptError` naming the missing one, the store, and what to do.
 */
export function checkContiguous(
  numbers: readonly number[],
  offset: number,
  what: (n: number) => string,
  store: string,
): void {
  numbers.forEach((n, i) => {
    if (n === offset + i) return;
    throw new SessionCorruptError(
      `The session is missing ${what(offset + i)} in ${store} (the next stored is ${n}). Restore the missing row from a backup, or delete the rows after it to truncate the history.`,
      { location: store },
    );
  });
}
