import {
  ConfigurationError,
  encodeBytes,
  forkSession,
  numberTransitions,
  Recording,
  recordingOf,
  type ForkOrigin,
  type JsonObject,
  type Message,
  type MultiAgentTask,
  type OrchestratorHistory,
  type StepSnapshot,
  type ToolResultContent,
} from '@skein/core';
import { checkEdit, type GraphForkEdit } from './fork-edit-check.js';
import { runStateOf } from './graph-history.js';
import type { GraphSession } from './graph-session.js';
import type { GraphConfig } from './graph-types.js';
import { followEdges, markSettled } from './node-ends.js';
import { nodeEntry, stateDocument, type RunState } from './run-state.js';
import { outgoingEdges } from './schedule.js';

/** What `graph.fork()` takes. */
export interface GraphForkOptions {
  /** The committed step to continue from (see `graph.history()`). */
  step: number;
  /** The new session's id, in the same store (it must not exist). */
  to: string;
  /** Changes to make before the fork continues (validated; the original session is never written). */
  edit?: GraphForkEdit;
}

/** A fork made by `graph.fork()`. */
export interface GraphFork {
  /** The new session: build the graph with a session manager for it and invoke it to continue. */
  sessionId: string;
  step: number;
  forkedFrom: ForkOrigin;
  /** What the original run did after the step: replay with `recording.model(nodeId)` and `recording.guard(graph.nodes)`. */
  recording: Recording;
}

/** Forks the graph's run at `options.step` into a new session of the same store (see `Graph.fork`). */
export async function forkGraph(
  session: GraphSession,
  config: GraphConfig,
  options: GraphForkOptions,
): Promise<GraphFork> {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('fork() takes { step, to, edit? }.');
  const edit = checkEdit(options.edit, config);
  const history = session.history();
  const recording = new Recording(await recordingAfter(history, options.step, config.id));
  const fork = await forkSession(session.repository, {
    sessionId: session.sessionId,
    orchestratorId: config.id,
    step: options.step,
    to: options.to,
    edit: (snapshot) => applyEdit(snapshot, edit, config, history),
    entries: recording.toEntries(),
  });
  return { sessionId: fork.sessionId, step: fork.step, forkedFrom: fork.forkedFrom, recording };
}

/** What the agents of the run did after `step`: their messages from where they stood then to the run's last step. */
async function recordingAfter(history: OrchestratorHistory, step: number, graphId: string) {
  const run = (await history.runs()).find((r) => r.firstStep <= step && step <= r.lastStep);
  if (!run || run.lastStep === step) return { outputs: {}, toolResults: {} };
  const [from, to] = await Promise.all([history.at(step), history.at(run.lastStep)]);
  const prefix = `${graphId}.`;
  const later = Object.entries(to.agents)
    .filter(([storeId]) => storeId.startsWith(prefix))
    .map(([storeId, agent]) => {
      const then = from.agents[storeId];
      // A turn waiting for answers then had already made its model call: its message is stored at `nextMessageId` later.
      const start = (then?.nextMessageId ?? 0) + (then?.record._internal_state?.['interrupt_state'] ? 1 : 0);
      const rows = agent.rows.filter((r) => r.message_id >= start);
      return [storeId.slice(prefix.length), rows.map((r) => r.message)] as const;
    });
  return recordingOf(later);
}

/** Applies `edit` to the snapshot the fork starts from; returns what changed, in words. */
async function applyEdit(
  snapshot: StepSnapshot,
  edit: GraphForkEdit,
  config: GraphConfig,
  history: OrchestratorHistory,
): Promise<string[]> {
  const done: string[] = [];
  const runEdits = edit.results !== undefined || edit.next !== undefined || edit.task !== undefined;
  if (runEdits) {
    const state = await editedRun(snapshot, edit, config, history, done);
    state.status = 'executing';
    state.failureReason = undefined;
    snapshot.state = { ...snapshot.state, ...stateDocument(state, state.elapsedBeforeMs) };
    delete snapshot.state['failureReason'];
    snapshot.transitions = state.transitions;
    for (const nodeId of Object.keys(edit.results ?? {})) {
      const result = state.results[nodeId];
      if (result) snapshot.nodes[nodeId] = nodeEntry(result, state.places[nodeId] ?? []);
    }
  }
  editAgents(snapshot, edit, config.id, done);
  return done;
}

/** The run state after the run edits: results (the step's own node follows its edges again), the task, the next nodes. */
async function editedRun(
  snapshot: StepSnapshot,
  edit: GraphForkEdit,
  config: GraphConfig,
  history: OrchestratorHistory,
  done: string[],
): Promise<RunState> {
  let state = runStateOf(snapshot);
  const stepNodes = Object.keys((await history.step(snapshot.step)).nodes);
  for (const [nodeId, text] of Object.entries(edit.results ?? {})) {
    const original = state.results[nodeId];
    if (!original)
      throw new ConfigurationError(
        `fork(): node ${nodeId} has no result at step ${snapshot.step} to replace (results then: ${Object.keys(state.results).join(', ') || 'none'}).`,
      );
    const { result: _live, ...plain } = original;
    const edited = { ...plain, text };
    if (stepNodes.includes(nodeId) && snapshot.step > 0) {
      // The step's own node: back to the step before, then settle it with the new result and follow its edges.
      state = await resettled(runStateOf(await history.at(snapshot.step - 1)), nodeId, edited, config);
      done.push(`result of ${nodeId} replaced; its edges were followed again`);
    } else {
      state.results[nodeId] = edited;
      done.push(`result of ${nodeId} replaced`);
    }
  }
  if (edit.task !== undefined) {
    state.task = edit.task as MultiAgentTask;
    done.push('task replaced');
  }
  if (edit.next !== undefined) {
    state.waiting = edit.next.map((nodeId) => ({ nodeId, sources: [] }));
    state.continuing = [];
    done.push(`next: ${edit.next.join(', ') || 'nothing'}`);
  }
  return state;
}

/** `state` (where `nodeId` was running) with `nodeId` settled with `result` and its edges followed. */
async function resettled(
  state: RunState,
  nodeId: string,
  result: RunState['results'][string],
  config: GraphConfig,
): Promise<RunState> {
  if (!state.running[nodeId] && !state.waiting.some((a) => a.nodeId === nodeId))
    throw new ConfigurationError(
      `fork(): node ${nodeId} was not running before this step; edit its result at the step where it finished.`,
    );
  delete state.running[nodeId];
  state.waiting = state.waiting.filter((a) => a.nodeId !== nodeId);
  delete state.answers[nodeId];
  delete state.paused[nodeId];
  markSettled(state, nodeId, result, true);
  const outgoing = outgoingEdges([...config.nodes.keys()], config.edges).get(nodeId) ?? [];
  const view = {
    task: state.task,
    results: state.results,
    executionOrder: state.executionOrder,
    executionCount: state.executionCount,
  };
  const followed = await followEdges(state, nodeId, result, outgoing, config, false, () => view);
  state.transitions = [...state.transitions, ...numberTransitions(state.transitions.length, followed.transitions)];
  return state;
}

/** The agent edits: a node agent's last message, tool results by tool use id, agent states. */
function editAgents(snapshot: StepSnapshot, edit: GraphForkEdit, graphId: string, done: string[]): void {
  const agentOf = (nodeId: string) => {
    const agent = snapshot.agents[`${graphId}.${nodeId}`];
    if (!agent) throw new ConfigurationError(`fork(): node ${nodeId} has no stored agent at step ${snapshot.step}.`);
    return agent;
  };
  for (const [nodeId, message] of Object.entries(edit.lastMessage ?? {})) {
    const agent = agentOf(nodeId);
    const last = agent.rows.at(-1);
    if (!last)
      throw new ConfigurationError(`fork(): the agent of node ${nodeId} has no message at step ${snapshot.step}.`);
    const replaced: Message =
      typeof message === 'string' ? { role: last.message.role, content: [{ text: message }] } : message;
    agent.rows[agent.rows.length - 1] = { ...last, message: replaced, redact_message: null };
    done.push(`last message of ${nodeId} replaced`);
  }
  for (const [toolUseId, content] of Object.entries(edit.toolResults ?? {})) {
    const blocks: ToolResultContent[] = typeof content === 'string' ? [{ text: content }] : content;
    if (!replaceToolResult(snapshot, toolUseId, blocks))
      throw new ConfigurationError(
        `fork(): no tool result ${toolUseId} in the agents' messages at step ${snapshot.step}.`,
      );
    done.push(`tool result ${toolUseId} replaced`);
  }
  for (const [nodeId, value] of Object.entries(edit.agentState ?? {})) {
    agentOf(nodeId).record.state = encodeBytes(value) as JsonObject;
    done.push(`agent state of ${nodeId} replaced`);
  }
}

function replaceToolResult(snapshot: StepSnapshot, toolUseId: string, content: ToolResultContent[]): boolean {
  for (const agent of Object.values(snapshot.agents)) {
    for (const [i, row] of agent.rows.entries()) {
      const at = row.message.content.findIndex((b) => 'toolResult' in b && b.toolResult.toolUseId === toolUseId);
      if (at < 0) continue;
      const blocks = [...row.message.content];
      const block = blocks[at] as { toolResult: { toolUseId: string; status: 'success' | 'error' } };
      blocks[at] = { toolResult: { ...block.toolResult, content } };
      agent.rows[i] = { ...row, message: { ...row.message, content: blocks }, redact_message: null };
      return true;
    }
  }
  return false;
}
