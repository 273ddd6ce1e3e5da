/**
 * What a node's end does to the run state, as functions of the state: a cancelled node, a pause, a
 * settled execution, and the edges it makes fire. The run writes and schedules around them.
 */
import {
  addUsage,
  emptyUsage,
  type Interrupt,
  type JsonObject,
  type MultiAgentEventData,
  type NewTransition,
  type NodeResult,
  type NodeTransition,
} from '@skein/core';
import type { GraphConfig, GraphEdge, GraphState } from './graph-types.js';
import type { PauseStage, RunState } from './run-state.js';
import { addActivation, arriveAt, checkConditions, describeEdge, type Activation, type FiredEdge } from './schedule.js';

/** A node a BeforeNodeCallEvent hook cancelled: out of `running`, not counted as an execution; its failed result. */
export function markCancelled(state: RunState, nodeId: string, count: number, reason: string): NodeResult {
  delete state.running[nodeId];
  state.counts[nodeId] = count - 1;
  state.executionCount--;
  const usage = emptyUsage();
  return {
    nodeId,
    status: 'failed',
    text: '',
    error: reason,
    usage,
    executionTimeMs: 0,
    executionCount: count - 1,
  };
}

/**
 * A node that waits for a person leaves `running` for `paused`: its execution completes when it is
 * resumed, so it is not counted twice.
 */
export function markPaused(
  state: RunState,
  activation: Activation,
  stage: PauseStage,
  interrupts: Interrupt[],
  result: NodeResult | undefined,
): void {
  const { nodeId } = activation;
  delete state.running[nodeId];
  state.counts[nodeId] = (state.counts[nodeId] ?? 1) - 1;
  state.executionCount--;
  state.paused[nodeId] = {
    sources: [...activation.sources],
    stage,
    interrupts,
  };
  if (result) state.results[nodeId] = result;
}

/** Records a node's result; an execution that ran takes its place in the order and adds its usage. */
export function markSettled(state: RunState, nodeId: string, result: NodeResult, ran: boolean): void {
  state.results[nodeId] = result;
  if (!ran) return;
  (state.places[nodeId] ??= []).push(state.executionOrder.length);
  state.executionOrder.push(nodeId);
  addUsage(state.usage, result.usage);
}

/** What following a settled node's edges gave: activations fired, their transitions, and a failure that halts the run. */
export interface Followed {
  fired: FiredEdge[];
  transitions: NewTransition[];
  /** Why the run must stop (a failure no edge routes around, without `continueOnFailure`). */
  halt: string | undefined;
}

/**
 * Follows a settled node's edges: the arrival is recorded before anything is awaited (nodes finishing
 * together cannot lose it), and the edges whose conditions hold add activations. A failed node is
 * routed around by conditional edges when `continueOnFailure`; else its failure is recorded and halts
 * the run. `stopped`: the run is halting, nothing is followed. A promise only when an edge has a
 * condition to evaluate; `graphState` (what conditions see) is made only then.
 */
export function followEdges(
  state: RunState,
  nodeId: string,
  result: NodeResult,
  outgoing: readonly GraphEdge[],
  config: GraphConfig,
  stopped: boolean,
  graphState: () => GraphState,
): Followed | Promise<Followed> {
  const ok = result.status === 'completed';
  // A tripped guardrail ends the run: no edge is followed, whatever `continueOnFailure` says.
  if (stopped || result.guardrail || !(ok || config.continueOnFailure)) return fire(state, nodeId, result, config, []);
  const arrival = arriveAt(nodeId, ok, outgoing, state.joins);
  state.joins = arrival.joins;
  const fired = checkConditions(arrival.candidates, graphState);
  if (fired instanceof Promise) return fired.then((f) => fire(state, nodeId, result, config, f));
  return fire(state, nodeId, result, config, fired);
}

/** Adds the activations of the edges that fired and says what follows from the node's end. */
function fire(state: RunState, nodeId: string, result: NodeResult, config: GraphConfig, fired: FiredEdge[]): Followed {
  const ok = result.status === 'completed';
  for (const f of fired)
    state.waiting = addActivation(state.waiting, {
      nodeId: f.edge.to,
      sources: f.sources,
    });
  const transitions: NewTransition[] = fired.map((f) => ({
    from: nodeId,
    to: f.edge.to,
    kind: f.edge.join ? 'join' : 'edge',
    reason: describeEdge(f.edge),
  }));
  if (state.handled.includes(nodeId)) state.handled = state.handled.filter((id) => id !== nodeId);
  if (ok) return { fired, transitions, halt: undefined };
  const trip = result.guardrail;
  if (trip)
    transitions.push({
      from: nodeId,
      to: null,
      kind: 'guardrail',
      reason: result.error ?? '',
      details: { ...trip } as JsonObject,
    });
  else if (fired.length > 0) state.handled.push(nodeId);
  else
    transitions.push({
      from: nodeId,
      to: null,
      kind: 'fail',
      reason: result.error ?? 'failed',
    });
  const halt =
    config.continueOnFailure && !trip ? undefined : `Node ${nodeId} failed: ${result.error ?? 'unknown error'}`;
  return { fired, transitions, halt };
}

/** Adds stored transitions to the run's list in `seq` order and emits them (`transition` events). */
export function publishTransitions(
  state: RunState,
  transitions: readonly NodeTransition[],
  emit: ((event: MultiAgentEventData) => void) | undefined,
): void {
  const list = state.transitions;
  for (const t of transitions) {
    list.push(t);
    if (list.length > 1 && (list[list.length - 2] as NodeTransition).seq > t.seq) list.sort((a, b) => a.seq - b.seq);
    emit?.({ type: 'transition', transition: t });
  }
}
