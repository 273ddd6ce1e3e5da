import {
  encodeBytes,
  parseSessionData,
  SessionCorruptError,
  SessionNotFoundError,
  type JsonObject,
  type NodeTransition,
  type Session,
  type SessionAgent,
  type SessionMessage,
  type SessionMultiAgent,
} from '@skein/core';

/**
 * The stored documents: each record is one row whose `doc` column holds the record's JSON with
 * Strands Agents' field names (the JSON a file or S3 store writes, without indentation). Parsing
 * checks the fields skein relies on, so a hand-edited row is a `SessionCorruptError` naming it.
 */

/** Serializes a record for its `doc` column (bytes encoded as Strands does, no indentation). */
export function toDoc(value: unknown): string {
  return JSON.stringify(encodeBytes(value));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function corrupt(location: string, problem: string): SessionCorruptError {
  return new SessionCorruptError(
    `Session data at ${location} ${problem}; fix or delete that row (nothing was changed).`,
    { location },
  );
}

function parseObject(text: unknown, location: string): Record<string, unknown> {
  if (typeof text !== 'string') throw corrupt(location, 'is not text');
  const value = parseSessionData<unknown>(text, location);
  if (!isObject(value)) throw corrupt(location, 'is not a JSON object');
  return value;
}

function requireString(doc: Record<string, unknown>, field: string, location: string): void {
  if (typeof doc[field] !== 'string') throw corrupt(location, `has no string field "${field}"`);
}

export function parseSession(text: unknown, location: string): Session {
  const doc = parseObject(text, location);
  requireString(doc, 'session_id', location);
  return {
    ...doc,
    session_type: doc['session_type'] === 'MULTI_AGENT' ? 'MULTI_AGENT' : 'AGENT',
  } as unknown as Session;
}

/** Missing state objects read as empty. */
export function parseAgent(text: unknown, location: string): SessionAgent {
  const doc = parseObject(text, location);
  requireString(doc, 'agent_id', location);
  if (doc['state'] !== undefined && !isObject(doc['state']))
    throw corrupt(location, 'has a "state" that is not an object');
  if (doc['conversation_manager_state'] !== undefined && !isObject(doc['conversation_manager_state']))
    throw corrupt(location, 'has a "conversation_manager_state" that is not an object');
  return {
    ...doc,
    state: doc['state'] ?? {},
    conversation_manager_state: doc['conversation_manager_state'] ?? {},
  } as unknown as SessionAgent;
}

/** Its `message_id` must be the row's. */
export function parseMessage(text: unknown, location: string, expectedId: number): SessionMessage {
  const doc = parseObject(text, location);
  const message = doc['message'];
  if (!isObject(message) || typeof message['role'] !== 'string' || !Array.isArray(message['content'])) {
    throw corrupt(location, 'has no valid "message" (an object with "role" and a "content" array)');
  }
  if (doc['message_id'] !== expectedId)
    throw corrupt(location, `has message_id ${JSON.stringify(doc['message_id'])} but its row says ${expectedId}`);
  return { ...doc, redact_message: doc['redact_message'] ?? null } as unknown as SessionMessage;
}

export function parseMultiAgent(text: unknown, location: string): SessionMultiAgent {
  const doc = parseObject(text, location);
  requireString(doc, 'id', location);
  if (!isObject(doc['state'])) throw corrupt(location, 'has no "state" object');
  return doc as unknown as SessionMultiAgent;
}

export function parseNodeEntry(text: unknown, location: string): JsonObject {
  return parseObject(text, location) as JsonObject;
}

/** Its `seq` must be the row's. */
export function parseTransition(text: unknown, location: string, seq: number): NodeTransition {
  const doc = parseObject(text, location);
  if (doc['seq'] !== seq) throw corrupt(location, `has seq ${JSON.stringify(doc['seq'])} but its row says ${seq}`);
  return doc as unknown as NodeTransition;
}

/** A message id, transition seq, offset or limit: an integer >= 0 (else `SessionNotFoundError`, before anything is touched). */
export function checkIndex(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new SessionNotFoundError(`Invalid ${what} ${JSON.stringify(value)}: use an integer >= 0.`);
  }
  return value;
}

/**
 * Checks that stored rows are numbered `offset`, `offset + 1`, ... (message ids, transition seqs): a
 * gap is a `SessionCorruptError` naming the missing one and what to do.
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
