import {
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
 * Parses stored objects and checks the fields skein relies on, so a hand-edited or truncated object is
 * a `SessionCorruptError` naming its `s3://bucket/key`, not a crash later.
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function corrupt(location: string, problem: string): SessionCorruptError {
  return new SessionCorruptError(`Session object ${location} ${problem}; fix or remove that object.`, { location });
}

function parseObject(text: string, location: string): Record<string, unknown> {
  const value = parseSessionData<unknown>(text, location);
  if (!isObject(value)) throw corrupt(location, 'is not a JSON object');
  return value;
}

function requireString(doc: Record<string, unknown>, field: string, location: string): void {
  if (typeof doc[field] !== 'string') throw corrupt(location, `has no string field "${field}"`);
}

/** `session.json`. */
export function parseSession(text: string, location: string): Session {
  const doc = parseObject(text, location);
  requireString(doc, 'session_id', location);
  return doc as unknown as Session;
}

/** `agent.json`; missing state objects read as empty. */
export function parseAgent(text: string, location: string): SessionAgent {
  const doc = parseObject(text, location);
  requireString(doc, 'agent_id', location);
  if (doc['state'] !== undefined && !isObject(doc['state']))
    throw corrupt(location, 'has a "state" that is not an object');
  return {
    ...doc,
    state: doc['state'] ?? {},
    conversation_manager_state: doc['conversation_manager_state'] ?? {},
  } as unknown as SessionAgent;
}

/** `message_<n>.json`; its `message_id` must be `n`. */
export function parseMessage(text: string, location: string, expectedId: number): SessionMessage {
  const doc = parseObject(text, location);
  const message = doc['message'];
  if (!isObject(message) || typeof message['role'] !== 'string' || !Array.isArray(message['content'])) {
    throw corrupt(location, 'has no valid "message" (an object with "role" and a "content" array)');
  }
  if (doc['message_id'] !== expectedId)
    throw corrupt(location, `has message_id ${JSON.stringify(doc['message_id'])} but its key says ${expectedId}`);
  return { ...doc, redact_message: doc['redact_message'] ?? null } as unknown as SessionMessage;
}

/** `multi_agent.json`. */
export function parseMultiAgent(text: string, location: string): SessionMultiAgent {
  const doc = parseObject(text, location);
  requireString(doc, 'id', location);
  if (!isObject(doc['state'])) throw corrupt(location, 'has no "state" object');
  return doc as unknown as SessionMultiAgent;
}

/** `node_<id>.json`. */
export function parseNodeEntry(text: string, location: string): JsonObject {
  return parseObject(text, location) as JsonObject;
}

/** `transition_<seq>.json`; its `seq` must be `seq`. */
export function parseTransition(text: string, location: string, seq: number): NodeTransition {
  const doc = parseObject(text, location);
  if (doc['seq'] !== seq) throw corrupt(location, `has seq ${JSON.stringify(doc['seq'])} but its key says ${seq}`);
  return doc as unknown as NodeTransition;
}

/** A message id, offset or transition number: an integer >= 0 (else a clear error). */
export function checkIndex(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new SessionNotFoundError(`Invalid ${what} ${JSON.stringify(value)}: use an integer >= 0.`);
  }
  return value;
}
