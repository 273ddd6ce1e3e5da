/**
 * What "fork here" can change, read from a step's state (`GET .../history/{step}`): a node's result,
 * a node agent's last message, one tool result in its messages, its agent state, the run's task, and
 * (swarms) the context a member's handoff carried. Pure: the panel asks what to offer and prefill,
 * and turns the form's value into the `edit` that `POST .../fork` takes (the graph's and swarm's
 * `fork({ edit })`).
 */

/** What the fork changes. */
export type EditKind = 'results' | 'lastMessage' | 'toolResults' | 'agentState' | 'task' | 'sharedContext';

/** The kinds, with their words on the page, in the order they are offered. */
export const EDIT_KINDS: readonly { kind: EditKind; label: string }[] = [
  { kind: 'results', label: "A node's result" },
  { kind: 'lastMessage', label: "A node agent's last message" },
  { kind: 'toolResults', label: 'A tool result' },
  { kind: 'agentState', label: "A node agent's state (JSON)" },
  { kind: 'task', label: "The run's task" },
  { kind: 'sharedContext', label: "A member's handoff context (JSON, swarms)" },
];

interface Block {
  text?: string;
  toolUse?: { toolUseId: string; name: string };
  toolResult?: { toolUseId: string; content: Block[] };
}
interface Msg {
  role: string;
  content: Block[];
}
/** A step's state as the history route gives it (a graph's `agents` or a swarm's `members`). */
export interface StepState {
  results?: Record<string, { text?: string; status?: string }>;
  agents?: Record<string, { messages: Msg[]; state: unknown }>;
  members?: Record<string, { messages: Msg[]; state: unknown }>;
  task?: unknown;
  sharedContext?: Record<string, unknown>;
}

/** One thing an edit of a kind can name: its id and its words in the list. */
export interface EditTarget {
  id: string;
  label: string;
}

const agentsOf = (state: StepState): Record<string, { messages: Msg[]; state: unknown }> =>
  state.agents ?? state.members ?? {};

const textOf = (blocks: readonly Block[] = []): string =>
  blocks
    .map((b) => b.text ?? '')
    .filter(Boolean)
    .join('\n');

/** The tool results in a node agent's messages, by tool use id (with the tool's name). */
function toolResults(state: StepState): Map<string, { node: string; name: string; text: string }> {
  const found = new Map<string, { node: string; name: string; text: string }>();
  for (const [node, agent] of Object.entries(agentsOf(state))) {
    const names = new Map<string, string>();
    for (const message of agent.messages)
      for (const block of message.content) {
        if (block.toolUse) names.set(block.toolUse.toolUseId, block.toolUse.name);
        if (block.toolResult) {
          const id = block.toolResult.toolUseId;
          found.set(id, { node, name: names.get(id) ?? 'tool', text: textOf(block.toolResult.content) });
        }
      }
  }
  return found;
}

/** What an edit of `kind` can name at this step (`completed`: the nodes done at it); empty for the task. */
export function editTargets(kind: EditKind, state: StepState, completed: readonly string[]): EditTarget[] {
  const named = (ids: string[]): EditTarget[] => ids.map((id) => ({ id, label: id }));
  switch (kind) {
    case 'results':
      return named([...completed]);
    case 'lastMessage':
      return named(Object.keys(agentsOf(state)).filter((n) => (agentsOf(state)[n]?.messages.length ?? 0) > 0));
    case 'agentState':
      return named(Object.keys(agentsOf(state)));
    case 'toolResults':
      return [...toolResults(state)].map(([id, t]) => ({ id, label: `${t.node}: ${t.name} (${id})` }));
    case 'sharedContext':
      return named(Object.keys(state.sharedContext ?? {}));
    case 'task':
      return [];
  }
}

/** The value the form starts from: what the step holds now. */
export function editPrefill(kind: EditKind, state: StepState, id: string): string {
  switch (kind) {
    case 'results':
      return state.results?.[id]?.text ?? '';
    case 'lastMessage':
      return textOf(agentsOf(state)[id]?.messages.at(-1)?.content);
    case 'agentState':
      return JSON.stringify(agentsOf(state)[id]?.state ?? {}, null, 2);
    case 'toolResults':
      return toolResults(state).get(id)?.text ?? '';
    case 'sharedContext':
      return JSON.stringify(state.sharedContext?.[id] ?? {}, null, 2);
    case 'task': {
      const task = state.task;
      if (typeof task === 'string') return task;
      if (Array.isArray(task))
        return task.map((m: Msg | Block) => ('role' in m ? textOf(m.content) : (m.text ?? ''))).join('\n');
      return '';
    }
  }
}

/** The `edit` of `POST .../fork` for `value`; throws with what to fix when a JSON value is not an object. */
export function editOf(kind: EditKind, id: string, value: string): Record<string, unknown> {
  if (kind === 'task') return { task: value };
  if (kind === 'agentState' || kind === 'sharedContext') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new Error(`The new value must be JSON (an object), e.g. {"tier": "gold"}.`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('The new value must be a JSON object, e.g. {"tier": "gold"}.');
    return { [kind]: { [id]: parsed } };
  }
  return { [kind]: { [id]: value } };
}
