/**
 * A graph's stored run, read back through its journal: resumed (its node agents restored to where
 * they stood), read when finished, or asked what it waits for. A stored run that is not valid is
 * refused before anything acts on it.
 */
import {
  isAgent,
  isUnfinished,
  restoreInterruptState,
  SessionCorruptError,
  type Agent,
  type AgentCheckpoint,
  type Interrupt,
  type JsonObject,
  type MultiAgentSnapshot,
  type RunJournal,
} from '@skein/core';
import type { GraphConfig } from './graph-types.js';
import { requeueRunning, restoreRunState, type RunState } from './run-state.js';
import { storedRunProblem } from './stored-run-check.js';

/** Loads the stored run, refusing one that is not valid before anything acts on it (found by the bad-input fuzz). */
async function load(journal: RunJournal, config: GraphConfig): Promise<MultiAgentSnapshot | undefined> {
  const snapshot = await journal.load();
  const problem = snapshot && storedRunProblem(snapshot, new Set(config.nodes.keys()));
  if (problem) {
    throw new SessionCorruptError(
      `The stored run of graph ${config.id} in session ${journal.sessionId} is not valid: ${problem}. Fix it or delete that run (its orchestrator state); nothing was changed.`,
    );
  }
  return snapshot;
}

/** The graph's agent nodes, as the journal's members (keyed by node id). */
function members(config: GraphConfig): { key: string; agent: Agent }[] {
  return [...config.nodes.values()].flatMap(({ id, target }) => (isAgent(target) ? [{ key: id, agent: target }] : []));
}

/**
 * Loads the stored run. An unfinished run (executing, interrupted by cancellation, or stopped by a budget) comes back
 * with its in-flight nodes moved to the front of the waiting ones, their agents restored to how
 * they were when those nodes started. A finished run is cleared: `undefined` means start fresh; so
 * is a run paused for answers when the caller does not bring answers (`answering: false`).
 */
export async function resumeRun(
  journal: RunJournal,
  config: GraphConfig,
  options: { answering: boolean },
): Promise<RunState | undefined> {
  const snapshot = await load(journal, config);
  const status = snapshot?.state['status'];
  const paused = snapshot?.state['paused'];
  // A run that ended paused, invoked with a task instead of answers, is left for the new task. (One
  // stored as `executing` with paused nodes was cut by a crash before it ended: it resumes.)
  const abandoned =
    !options.answering &&
    status === 'interrupted' &&
    typeof paused === 'object' &&
    paused !== null &&
    Object.keys(paused).length > 0;
  if (!snapshot || !isUnfinished(status) || abandoned) {
    if (snapshot) await journal.clear();
    if (!journal.membersAttached) await journal.attachMembers(members(config));
    return undefined;
  }
  await journal.attachMembers(members(config), checkpointsOf(snapshot.state));
  const transitions = await journal.repairTail(snapshot);
  const state = restoreRunState(snapshot.state, snapshot.nodes, transitions);
  const rerun = Object.entries(state.running);
  for (const [nodeId, at] of [...rerun, ...Object.entries(state.startPoints ?? {})]) {
    const target = config.nodes.get(nodeId)?.target;
    if (!isAgent(target) || at.messages === undefined) continue;
    // Back to where the agent stood when the node started (its step was not committed).
    target.messages = target.messages.slice(0, at.messages);
    if (at.state) target.state.replace(at.state);
    restoreInterruptState(target, at.interruptState);
    // With a checkpoint, `attachMembers` already removed what was stored after it; older runs rewrite the history.
    if (!at.checkpoint) await journal.resetAgent(target);
  }
  delete state.startPoints;
  requeueRunning(state);
  return state;
}

/** The stored run when it finished (`completed` or `failed`), else `undefined`; appends the last transitions a crash cut (the only write). */
export async function finishedRun(journal: RunJournal, config: GraphConfig): Promise<RunState | undefined> {
  const snapshot = await load(journal, config);
  const status = snapshot?.state['status'];
  if (!snapshot || (status !== 'completed' && status !== 'failed')) return undefined;
  // A writer killed after committing the end of the run may not have appended its last transitions.
  return restoreRunState(snapshot.state, snapshot.nodes, await journal.repairTail(snapshot));
}

/** The interrupts a stored run paused for (none when it is not paused); reads only. */
export async function pausedFor(journal: RunJournal, config: GraphConfig): Promise<Interrupt[]> {
  const snapshot = await load(journal, config);
  const paused = snapshot?.state['paused'];
  // `executing` with paused nodes: a crash came before the end of the run that paused was stored.
  const status = snapshot?.state['status'];
  if ((status !== 'interrupted' && status !== 'executing') || typeof paused !== 'object' || paused === null) return [];
  return Object.values(paused as unknown as Record<string, { interrupts: Interrupt[] }>).flatMap((p) => p.interrupts);
}

/** The checkpoints of the agents of the nodes a stored run has running or waiting (checked by `storedRunProblem`). */
function checkpointsOf(state: JsonObject): Map<string, AgentCheckpoint> {
  type At = { checkpoint?: AgentCheckpoint };
  const running = Object.entries((state['running'] ?? {}) as unknown as Record<string, At>);
  const waiting = ((state['waiting'] ?? []) as unknown as (At & { nodeId: string })[]).map(
    (a) => [a.nodeId, a] as const,
  );
  return new Map([...waiting, ...running].flatMap(([id, f]) => (f.checkpoint ? [[id, f.checkpoint] as const] : [])));
}
