import {
  ConfigurationError,
  isAgent,
  type JsonObject,
  type Message,
  type MultiAgentTask,
  type ToolResultContent,
} from '@skein/core';
import type { GraphConfig } from './graph-types.js';

/**
 * What a graph fork changes before it continues (every field optional). Results and the next nodes
 * change the run; the others change node agents as they stood at the step.
 */
export interface GraphForkEdit {
  /** Replace nodes' results (their text). The step's own node (the one that finished at that step) follows its edges again with the new result. */
  results?: Record<string, string>;
  /** Replace the last message of nodes' agents (a string keeps the message's role). */
  lastMessage?: Record<string, string | Message>;
  /** Replace tool results in the agents' messages, by tool use id (a string is one text block). */
  toolResults?: Record<string, string | ToolResultContent[]>;
  /** Replace the run's task (what every node's input starts with: a graph's shared state). */
  task?: MultiAgentTask;
  /** Replace nodes' agent state. */
  agentState?: Record<string, JsonObject>;
  /** Run these nodes next instead of the ones that were waiting. */
  next?: string[];
}

const KEYS = new Set(['results', 'lastMessage', 'toolResults', 'task', 'agentState', 'next']);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(what: string): never {
  throw new ConfigurationError(`fork({ edit }): ${what}.`);
}

const isMessage = (v: unknown): v is Message =>
  isObj(v) &&
  (v['role'] === 'user' || v['role'] === 'assistant') &&
  Array.isArray(v['content']) &&
  v['content'].every(isObj);

/** Checks a fork's edit against the graph before anything is read or written; throws `ConfigurationError` naming what is wrong. */
export function checkEdit(edit: unknown, config: GraphConfig): GraphForkEdit {
  if (edit === undefined) return {};
  if (!isObj(edit)) fail(`edit is an object of ${[...KEYS].join(', ')}`);
  const unknown = Object.keys(edit).filter((k) => !KEYS.has(k));
  if (unknown.length > 0) fail(`unknown field(s) ${unknown.join(', ')}; use ${[...KEYS].join(', ')}`);
  const node = (id: string, where: string, agent = false): void => {
    const n = config.nodes.get(id);
    if (!n)
      fail(
        `${where} names node ${JSON.stringify(id)}, which this graph does not have (nodes: ${[...config.nodes.keys()].join(', ')})`,
      );
    if (agent && !isAgent(n.target)) fail(`${where} names node ${id}, which is not an agent`);
  };
  const byNode = (field: string, ok: (v: unknown) => boolean, what: string, agent = false): void => {
    const v = edit[field];
    if (v === undefined) return;
    if (!isObj(v)) fail(`${field} is an object by node id`);
    for (const [id, value] of Object.entries(v)) {
      node(id, field, agent);
      if (!ok(value)) fail(`${field}.${id} must be ${what}`);
    }
  };
  byNode('results', (v) => typeof v === 'string', 'a string (the new text)');
  byNode('lastMessage', (v) => typeof v === 'string' || isMessage(v), 'a string or a message { role, content }', true);
  byNode('agentState', isObj, 'a JSON object', true);
  const tools = edit['toolResults'];
  if (tools !== undefined) {
    if (!isObj(tools)) fail('toolResults is an object by tool use id');
    for (const [id, v] of Object.entries(tools))
      if (typeof v !== 'string' && !(Array.isArray(v) && v.every(isObj)))
        fail(`toolResults.${id} must be a string or content blocks`);
  }
  const task = edit['task'];
  if (task !== undefined && typeof task !== 'string' && !Array.isArray(task))
    fail('task is a string or content blocks');
  const next = edit['next'];
  if (next !== undefined) {
    if (!Array.isArray(next) || !next.every((id) => typeof id === 'string')) fail('next is a list of node ids');
    for (const id of next) node(id, 'next');
  }
  try {
    JSON.stringify(edit);
  } catch (error) {
    fail(`it is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return edit as GraphForkEdit;
}
