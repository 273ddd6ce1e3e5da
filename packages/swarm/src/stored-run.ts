import { checkMessages, MultiAgentError, type JsonObject, type NodeResult, type StepSnapshot } from '@skein/core';
import type { SwarmMembers } from './swarm-members.js';
import { decodeState, withTurnHistory, type SwarmRunState } from './swarm-state.js';
import { committedTurns, decodeTask, isRunEntry, TASK_ENTRY, type SwarmTurn } from './swarm-turn.js';
import type { Message } from '@skein/core';

/** A run as stored: its state (whole node history), member results, task (absent: not stored yet) and committed turns. */
export interface StoredParts {
  state: SwarmRunState;
  results: Record<string, NodeResult>;
  task: Message[] | undefined;
  turns: SwarmTurn[];
}

/** Reads a stored run from its state document and entries (throws `MultiAgentError` for one this version cannot use). */
export function readStoredRun(doc: JsonObject, nodes: Record<string, JsonObject>, members: SwarmMembers): StoredParts {
  const state = decodeState(doc);
  const results: Record<string, NodeResult> = {};
  for (const [id, entry] of Object.entries(nodes)) {
    if (isRunEntry(id)) continue;
    const result = entry as unknown as NodeResult;
    if (typeof result.nodeId === 'string' && members.has(result.nodeId)) results[result.nodeId] = result;
  }
  const taskEntry = nodes[TASK_ENTRY];
  const turns = committedTurns(nodes, state.turns);
  withTurnHistory(doc, state, turns);
  const task = taskEntry === undefined ? undefined : decodeTask(taskEntry);
  // Checked once here: the members are handed the conversation without checking it again.
  checkStored(task ?? [], 'the task');
  for (const turn of turns) checkStored(turn.newItems, `turn ${turn.seq}`);
  if (state.pause) checkStored(state.pause.items, 'the paused turn');
  return { state, results, task, turns };
}

function checkStored(messages: readonly unknown[], what: string): void {
  try {
    checkMessages(messages, 'message');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new MultiAgentError(
      `The stored swarm run is not usable (${what} holds a malformed message: ${why}); clear the session or use another swarm id.`,
    );
  }
}

/** The run at a snapshot: its state, task, committed turns and member results. */
export function storedAt(snapshot: StepSnapshot, members: SwarmMembers): StoredParts & { task: Message[] } {
  const stored = readStoredRun(snapshot.state, snapshot.nodes, members);
  return { ...stored, task: stored.task ?? [] };
}
