import { ConfigurationError, type JsonObject, type Message, type ToolResultContent } from '@skein/core';
import type { SwarmMembers } from './swarm-members.js';

/**
 * What a swarm fork changes before it continues (every field optional), by member name. Member
 * messages, tool results, agent states and shared context are edited in the committed turns the run
 * is rebuilt from; `next` makes the run continue at another member.
 */
export interface SwarmForkEdit {
  /** Replace members' latest results (their text). */
  results?: Record<string, string>;
  /** Replace the last message of a member's latest turn (a string keeps the message's role). */
  lastMessage?: Record<string, string | Message>;
  /** Replace tool results in the turns, by tool use id (a string is one text block). */
  toolResults?: Record<string, string | ToolResultContent[]>;
  /** Replace the context a member's latest handoff carried into the shared context. */
  sharedContext?: Record<string, JsonObject>;
  /** Replace a member's agent state after its latest turn. */
  agentState?: Record<string, JsonObject>;
  /** Replace the run's task. */
  task?: string | Message[];
  /** The member that runs next (a pending handoff or pause is dropped; the run continues there). */
  next?: string;
}

const KEYS = new Set(['results', 'lastMessage', 'toolResults', 'sharedContext', 'agentState', 'task', 'next']);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isMessage = (v: unknown): v is Message =>
  isObj(v) &&
  (v['role'] === 'user' || v['role'] === 'assistant') &&
  Array.isArray(v['content']) &&
  v['content'].every(isObj);

function fail(what: string): never {
  throw new ConfigurationError(`fork({ edit }): ${what}.`);
}

/** Checks a fork's edit against the swarm before anything is read or written; throws `ConfigurationError` naming what is wrong. */
export function checkSwarmEdit(edit: unknown, members: SwarmMembers): SwarmForkEdit {
  if (edit === undefined) return {};
  if (!isObj(edit)) fail(`edit is an object of ${[...KEYS].join(', ')}`);
  const unknown = Object.keys(edit).filter((k) => !KEYS.has(k));
  if (unknown.length > 0) fail(`unknown field(s) ${unknown.join(', ')}; use ${[...KEYS].join(', ')}`);
  const member = (id: unknown, where: string): void => {
    if (typeof id !== 'string' || !members.has(id))
      fail(`${where} names ${JSON.stringify(id)}, which is not a member (members: ${members.ids.join(', ')})`);
  };
  const byMember = (field: string, ok: (v: unknown) => boolean, what: string): void => {
    const v = edit[field];
    if (v === undefined) return;
    if (!isObj(v)) fail(`${field} is an object by member name`);
    for (const [id, value] of Object.entries(v)) {
      member(id, field);
      if (!ok(value)) fail(`${field}.${id} must be ${what}`);
    }
  };
  byMember('results', (v) => typeof v === 'string', 'a string (the new text)');
  byMember('lastMessage', (v) => typeof v === 'string' || isMessage(v), 'a string or a message { role, content }');
  byMember('sharedContext', isObj, 'a JSON object');
  byMember('agentState', isObj, 'a JSON object');
  const tools = edit['toolResults'];
  if (tools !== undefined) {
    if (!isObj(tools)) fail('toolResults is an object by tool use id');
    for (const [id, v] of Object.entries(tools))
      if (typeof v !== 'string' && !(Array.isArray(v) && v.every(isObj)))
        fail(`toolResults.${id} must be a string or content blocks`);
  }
  const task = edit['task'];
  if (task !== undefined && typeof task !== 'string' && !(Array.isArray(task) && task.every(isMessage)))
    fail('task is a string or messages');
  if (edit['next'] !== undefined) member(edit['next'], 'next');
  try {
    JSON.stringify(edit);
  } catch (error) {
    fail(`it is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return edit as SwarmForkEdit;
}
