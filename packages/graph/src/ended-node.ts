import {
  pauseTransition,
  type Agent,
  type BudgetExceeded,
  type Interrupt,
  type InvocationState,
  type MultiAgentEventData,
  type NodeResult,
  type Status,
} from '@skein/core';
import type { GraphEdge, GraphState } from './graph-types.js';
import { agentOf, commitStep, inFlightOf, nodeEntry } from './graph-step.js';
import { followEdges, markCancelled, markPaused, markSettled, publishTransitions } from './node-ends.js';
import { afterNode } from './node-hooks.js';
import type { RunHost } from './run-host.js';
import type { PauseStage, RunState } from './run-state.js';
import type { Activation } from './schedule.js';

/** What the end of a node's execution reads and changes of its run. */
export interface NodeEnding {
  readonly host: RunHost;
  readonly state: RunState;
  readonly emit: ((event: MultiAgentEventData) => void) | undefined;
  readonly invocationState: InvocationState;
  readonly outgoing: ReadonlyMap<string, GraphEdge[]>;
  /** How the run was stopped, if it was. */
  stopped(): { status: Status; reason: string } | undefined;
  /** A node waits for a person: nothing new starts. */
  pausing(): void;
  /** Records the budget limit that stopped a node (the first one wins). */
  budgetStopped(exceeded: BudgetExceeded | undefined): void;
  halt(status: Status, reason: string): void;
  /** Starts `nodeId` when it may. */
  schedule(nodeId: string): void;
  /** Time spent on the run, earlier processes included (the step's state document stores it). */
  elapsedMs(): number;
  graphState(): GraphState;
}

/** A node a BeforeNodeCallEvent hook cancelled: failed, and not counted as an execution. */
export function cancelledNode(run: NodeEnding, activation: Activation, count: number, reason: string): Promise<void> {
  return settledNode(run, activation, markCancelled(run.state, activation.nodeId, count, reason), false);
}

/** After a node's execution: a stop keeps it running to go on later, a pause waits, anything else settles. */
export function endedNode(
  run: NodeEnding,
  activation: Activation,
  agent: Agent | undefined,
  result: NodeResult,
): Promise<void> {
  const { nodeId } = activation;
  if (run.stopped()?.status === 'interrupted') return stoppedNode(run, activation, agent, undefined);
  if (result.status === 'interrupted' && result.interrupts)
    return pausedNode(run, activation, 'node', result.interrupts, result);
  if (result.status === 'budgetExceeded') {
    run.budgetStopped(result.budgetExceeded);
    if (result.budgetExceeded) run.host.budget?.nodeStopped(result.result);
    return stoppedNode(run, activation, agent, result);
  }
  delete run.state.running[nodeId];
  delete run.state.answers[nodeId];
  return settledNode(run, activation, result, true);
}

/**
 * A node stopped at a safe point (its budget, a cancellation) stays in `running`, and what its agent
 * did so far is committed with where it stood: a resume continues the agent from there (its finished
 * tool calls are not run again, a turn stopped between its tool uses runs only the rest).
 */
async function stoppedNode(
  run: NodeEnding,
  activation: Activation,
  agent: Agent | undefined,
  result: NodeResult | undefined,
): Promise<void> {
  const { nodeId } = activation;
  run.state.running[nodeId] = inFlightOf(activation, agent, run.host.journal, true);
  if (result) run.state.results[nodeId] = result;
  await commitStep(run, { agent });
  if (result) run.emit?.({ type: 'nodeStop', nodeId, result });
}

/**
 * A node waits for a person: it leaves `running` for `paused` (its execution completes when it is
 * resumed, so it is not counted twice), nothing new starts, and the pause is stored with an
 * `interrupt` transition before the run ends as `interrupted`.
 */
export async function pausedNode(
  run: NodeEnding,
  activation: Activation,
  stage: PauseStage,
  interrupts: Interrupt[],
  result: NodeResult | undefined,
): Promise<void> {
  const { nodeId } = activation;
  markPaused(run.state, activation, stage, interrupts, result);
  run.pausing();
  const stored = await commitStep(run, {
    transitions: [pauseTransition(nodeId, stage, interrupts)],
    agent: agentOf(run.host.config, nodeId),
  });
  if (result) run.emit?.({ type: 'nodeStop', nodeId, result });
  publishTransitions(run.state, stored, run.emit);
  if (result) await afterNode(run.host.hooks, run.host.graph, nodeId, result, run.invocationState);
}

/** Records a finished (or cancelled) node, follows its edges, persists, then starts what became ready. */
async function settledNode(run: NodeEnding, activation: Activation, result: NodeResult, ran: boolean): Promise<void> {
  const { state } = run;
  const { nodeId } = activation;
  const { config, hooks, graph, journal } = run.host;
  markSettled(state, nodeId, result, ran);
  const outgoing = run.outgoing.get(nodeId) ?? [];
  const stopped = run.stopped() !== undefined;
  const following = followEdges(state, nodeId, result, outgoing, config, stopped, () => run.graphState());
  const followed = following instanceof Promise ? await following : following;
  const { fired, transitions } = followed;
  if (followed.halt) run.halt('failed', followed.halt);
  // The node entry is a JSON copy of the result: made only when a session stores it.
  const node = journal.persistent ? { id: nodeId, entry: nodeEntry(result, state.places[nodeId] ?? []) } : undefined;
  const stored = await commitStep(run, { node, transitions, agent: agentOf(config, nodeId) });
  run.emit?.({ type: 'nodeStop', nodeId, result });
  publishTransitions(state, stored, run.emit);
  const after = afterNode(hooks, graph, nodeId, result, run.invocationState);
  if (after) await after;
  for (const f of fired) run.schedule(f.edge.to);
  if (state.waiting.some((a) => a.nodeId === nodeId)) run.schedule(nodeId);
}
