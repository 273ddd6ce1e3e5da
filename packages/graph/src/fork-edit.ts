/** How a graph fork's checked edit changes the snapshot it starts from: the run (results, task, next nodes) and the node agents. */
import {
  ConfigurationError,
  editedMessage,
  encodeBytes,
  numberTransitions,
  withToolResult,
  type ForkEdits,
  type JsonObject,
  type MultiAgentTask,
  type OrchestratorHistory,
  type StepSnapshot,
} from '@skein/core';
import type { GraphConfig } from './graph-types.js';
import { followEdges, markSettled } from './node-ends.js';
import { nodeEntry, stateDocument } from './graph-step.js';
import { runStateOf, type RunState } from './run-state.js';
import { outgoingEdges } from './schedule.js';

/**
 * What a graph fork changes before it continues (every field optional), by node id. Results and the
 * next nodes change the run (the step's own node, the one that finished at that step, follows its
 * edges again with a new result); the others change node agents as they stood at the step.
 */
export interface GraphForkEdit extends ForkEdits {
  /** Replace the run's task (what every node's input starts with: a graph's shared state). */
  task?: MultiAgentTask;
  /** Run these nodes next instead of the ones that were waiting. */
  next?: string[];
}

/** Applies `edit` to the snapshot the fork starts from; returns what changed, in words. */
export async function applyGraphEdit(
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
    agent.rows[agent.rows.length - 1] = {
      ...last,
      message: editedMessage(last.message, message),
      redact_message: null,
    };
    done.push(`last message of ${nodeId} replaced`);
  }
  for (const [toolUseId, content] of Object.entries(edit.toolResults ?? {})) {
    if (!replaceToolResult(snapshot, toolUseId, content))
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

/** Replaces tool result `toolUseId` in the first agent message that holds it; false when none does. */
function replaceToolResult(
  snapshot: StepSnapshot,
  toolUseId: string,
  content: Parameters<typeof withToolResult>[2],
): boolean {
  for (const agent of Object.values(snapshot.agents)) {
    for (const [i, row] of agent.rows.entries()) {
      const message = withToolResult(row.message, toolUseId, content);
      if (!message) continue;
      agent.rows[i] = { ...row, message, redact_message: null };
      return true;
    }
  }
  return false;
}
