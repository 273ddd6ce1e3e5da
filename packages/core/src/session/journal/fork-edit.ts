import { ConfigurationError } from '../../errors/configuration-errors.js';
import type { JsonObject } from '../../types/json.js';
import type { Message, ToolResultContent } from '../../types/messages.js';

/**
 * What a field of a fork's edit takes: by node (or member) a new `text` result, a `message` (a string
 * keeps the role), a JSON `object`; `toolResults` by tool use id; the run's `task` as a string or
 * content blocks, or as a string or `messages`; the `parts` (node ids) or the one `part` to run next.
 */
export type ForkEditKind = 'text' | 'message' | 'object' | 'toolResults' | 'task' | 'messages' | 'parts' | 'part';

/** The edits every orchestrator's fork takes, by node (a graph's node id, a swarm's member name); each orchestrator adds its own. */
export interface ForkEdits {
  /** Replace the latest results of nodes (their text). */
  results?: Record<string, string>;
  /** Replace the last message of a node's agent (a string keeps the message's role). */
  lastMessage?: Record<string, string | Message>;
  /** Replace tool results in the agents' messages, by tool use id (a string is one text block). */
  toolResults?: Record<string, string | ToolResultContent[]>;
  /** Replace a node's agent state. */
  agentState?: Record<string, JsonObject>;
}

/** The edit schema of an orchestrator's fork: its fields and what names its parts. */
export interface ForkEditSchema {
  /** The fields, in the order messages list them; `agents`: it names agent parts only. */
  fields: Record<string, { kind: ForkEditKind; agents?: boolean }>;
  /** What a part is called (`node`, `member`) and what its id is (`node id`, `member name`). */
  part: string;
  id: string;
  /** The orchestrator's kind, as messages say it (`graph`, `swarm`). */
  orchestrator: string;
  /** The parts' ids (listed when an edit names another). */
  ids: readonly string[];
  has(id: string): boolean;
  isAgent(id: string): boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isMessage = (v: unknown): v is Message =>
  isObj(v) &&
  (v['role'] === 'user' || v['role'] === 'assistant') &&
  Array.isArray(v['content']) &&
  v['content'].every(isObj);
const isBlocks = (v: unknown): boolean => Array.isArray(v) && v.every(isObj);

function fail(what: string): never {
  throw new ConfigurationError(`fork({ edit }): ${what}.`);
}

/** What a value of each by-part kind must be, in words, and the test. */
const BY_PART: Partial<Record<ForkEditKind, [string, (v: unknown) => boolean]>> = {
  text: ['a string (the new text)', (v) => typeof v === 'string'],
  message: ['a string or a message { role, content }', (v) => typeof v === 'string' || isMessage(v)],
  object: ['a JSON object', isObj],
};

/** Checks a fork's edit against the orchestrator's schema before anything is read or written; throws `ConfigurationError` naming what is wrong. */
export function checkForkEdit<E>(edit: unknown, schema: ForkEditSchema): E {
  const keys = Object.keys(schema.fields);
  if (edit === undefined) return {} as E;
  if (!isObj(edit)) fail(`edit is an object of ${keys.join(', ')}`);
  const unknown = Object.keys(edit).filter((k) => !keys.includes(k));
  if (unknown.length > 0) fail(`unknown field(s) ${unknown.join(', ')}; use ${keys.join(', ')}`);
  const part = (id: unknown, where: string, agent = false): void => {
    if (typeof id !== 'string' || !schema.has(id))
      fail(
        `${where} names ${schema.part} ${JSON.stringify(id)}, which this ${schema.orchestrator} does not have (${schema.part}s: ${schema.ids.join(', ')})`,
      );
    if (agent && !schema.isAgent(id)) fail(`${where} names ${schema.part} ${id}, which is not an agent`);
  };
  for (const [field, { kind, agents }] of Object.entries(schema.fields)) {
    const v = edit[field];
    if (v === undefined) continue;
    const byPart = BY_PART[kind];
    if (byPart) {
      if (!isObj(v)) fail(`${field} is an object by ${schema.id}`);
      for (const [id, value] of Object.entries(v)) {
        part(id, field, agents);
        if (!byPart[1](value)) fail(`${field}.${id} must be ${byPart[0]}`);
      }
    } else if (kind === 'toolResults') {
      if (!isObj(v)) fail(`${field} is an object by tool use id`);
      for (const [id, value] of Object.entries(v))
        if (typeof value !== 'string' && !isBlocks(value)) fail(`${field}.${id} must be a string or content blocks`);
    } else if (kind === 'task') {
      if (typeof v !== 'string' && !Array.isArray(v)) fail(`${field} is a string or content blocks`);
    } else if (kind === 'messages') {
      if (typeof v !== 'string' && !(Array.isArray(v) && v.every(isMessage))) fail(`${field} is a string or messages`);
    } else if (kind === 'parts') {
      if (!Array.isArray(v) || !v.every((id) => typeof id === 'string')) fail(`${field} is a list of ${schema.id}s`);
      for (const id of v) part(id, field);
    } else part(v, field);
  }
  try {
    JSON.stringify(edit);
  } catch (error) {
    fail(`it is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return edit as E;
}

/** The message an edit puts in place of `old`: a string keeps `old`'s role. */
export function editedMessage(old: Message, edit: string | Message): Message {
  return typeof edit === 'string' ? { role: old.role, content: [{ text: edit }] } : edit;
}

/** `message` with the content of its tool result `toolUseId` replaced (a string is one text block); `undefined` when it holds none. */
export function withToolResult(
  message: Message,
  toolUseId: string,
  content: string | ToolResultContent[],
): Message | undefined {
  const at = message.content.findIndex((b) => 'toolResult' in b && b.toolResult.toolUseId === toolUseId);
  if (at < 0) return undefined;
  const blocks = [...message.content];
  const block = blocks[at] as { toolResult: { toolUseId: string; status: 'success' | 'error' } };
  const replaced: ToolResultContent[] = typeof content === 'string' ? [{ text: content }] : content;
  blocks[at] = { toolResult: { ...block.toolResult, content: replaced } };
  return { ...message, content: blocks };
}
