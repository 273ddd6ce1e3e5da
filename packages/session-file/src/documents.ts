import fs from 'node:fs/promises';
import {
  SessionCorruptError,
  parseSessionData,
  type JsonObject,
  type Message,
  type NodeTransition,
  type Session,
  type SessionAgent,
  type SessionMessage,
  type SessionMultiAgent,
} from '@skein/core';
import { errnoCode, fsError } from './errors.js';

/** Reads and parses one JSON file; `undefined` when it does not exist. */
export async function readJson(file: string, root: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw fsError(error, 'read', file, root);
  }
  return parseSessionData<unknown>(text, file);
}

type Obj = Record<string, unknown>;

function corrupt(file: string, what: string): SessionCorruptError {
  return new SessionCorruptError(
    `${file} is not a valid ${what}; fix the file (or restore it from a backup). Nothing was changed.`,
    { location: file },
  );
}

function object(raw: unknown, file: string, what: string): Obj {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw corrupt(file, `${what} (expected a JSON object)`);
  return raw as Obj;
}

function isMessage(value: unknown): value is Message {
  const m = value as { role?: unknown; content?: unknown } | null;
  return (
    typeof m === 'object' && m !== null && (m.role === 'user' || m.role === 'assistant') && Array.isArray(m.content)
  );
}

const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const jsonObject = (value: unknown): JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};

/** `session.json`. */
export function toSession(raw: unknown, file: string): Session {
  const o = object(raw, file, 'session.json');
  if (typeof o['session_id'] !== 'string') throw corrupt(file, 'session.json (no "session_id")');
  const type = o['session_type'] === 'MULTI_AGENT' ? 'MULTI_AGENT' : 'AGENT';
  return {
    session_id: o['session_id'],
    session_type: type,
    created_at: text(o['created_at'], ''),
    updated_at: text(o['updated_at'], ''),
  };
}

/** `agent.json`. */
export function toAgent(raw: unknown, file: string): SessionAgent {
  const o = object(raw, file, 'agent.json');
  if (typeof o['agent_id'] !== 'string') throw corrupt(file, 'agent.json (no "agent_id")');
  return {
    agent_id: o['agent_id'],
    state: jsonObject(o['state']),
    conversation_manager_state: jsonObject(o['conversation_manager_state']),
    ...(isPlainObject(o['_internal_state']) ? { _internal_state: o['_internal_state'] } : {}),
    created_at: text(o['created_at'], ''),
    updated_at: text(o['updated_at'], ''),
  };
}

/** `message_<n>.json`; its `message_id` must be `n`. */
export function toMessage(raw: unknown, file: string, messageId: number): SessionMessage {
  const o = object(raw, file, 'session message');
  if (!isMessage(o['message'])) throw corrupt(file, 'session message ("message" needs a role and a content list)');
  if (o['message_id'] !== messageId)
    throw corrupt(
      file,
      `session message ("message_id" is ${JSON.stringify(o['message_id'])}, its file name says ${messageId})`,
    );
  const redact = o['redact_message'];
  if (redact !== null && redact !== undefined && !isMessage(redact))
    throw corrupt(file, 'session message ("redact_message" is not a message)');
  return {
    message: o['message'],
    message_id: messageId,
    redact_message: redact ?? null,
    created_at: text(o['created_at'], ''),
    updated_at: text(o['updated_at'], ''),
  };
}

/** `multi_agent.json`. */
export function toMultiAgent(raw: unknown, file: string): SessionMultiAgent {
  const o = object(raw, file, 'multi_agent.json');
  if (typeof o['id'] !== 'string') throw corrupt(file, 'multi_agent.json (no "id")');
  return {
    id: o['id'],
    type: text(o['type'], ''),
    state: jsonObject(o['state']),
    created_at: text(o['created_at'], ''),
    updated_at: text(o['updated_at'], ''),
  };
}

/** `node_<id>.json`. */
export function toNodeEntry(raw: unknown, file: string): JsonObject {
  return object(raw, file, 'node entry') as JsonObject;
}

/** `transition_<seq>.json`; its `seq` must be the file's. */
export function toTransition(raw: unknown, file: string, seq: number): NodeTransition {
  const o = object(raw, file, 'transition');
  if (o['seq'] !== seq)
    throw corrupt(file, `transition ("seq" is ${JSON.stringify(o['seq'])}, its file name says ${seq})`);
  const node = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  const details = isPlainObject(o['details']) ? { details: o['details'] } : {};
  return {
    seq,
    from: node(o['from']),
    to: node(o['to']),
    kind: text(o['kind'], ''),
    reason: text(o['reason'], ''),
    ...details,
    at: text(o['at'], ''),
  };
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The stored form of an agent record (Strands' field order). */
export const agentDoc = (a: SessionAgent): SessionAgent => ({
  agent_id: a.agent_id,
  state: a.state,
  conversation_manager_state: a.conversation_manager_state,
  ...(a._internal_state ? { _internal_state: a._internal_state } : {}),
  created_at: a.created_at,
  updated_at: a.updated_at,
});

/** The stored form of a message record. */
export const messageDoc = (m: SessionMessage): SessionMessage => ({
  message: m.message,
  message_id: m.message_id,
  redact_message: m.redact_message ?? null,
  created_at: m.created_at,
  updated_at: m.updated_at,
});

/** The stored form of an orchestrator's state document. */
export const multiAgentDoc = (m: SessionMultiAgent): SessionMultiAgent => ({
  id: m.id,
  type: m.type,
  state: m.state,
  created_at: m.created_at,
  updated_at: m.updated_at,
});
