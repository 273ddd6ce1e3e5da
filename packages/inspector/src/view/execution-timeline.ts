import type { NodeTransition } from '@skein/core';
import { obj, str } from './json-read.js';
import type { NodeExecution, NodeResultView } from './run-types.js';
import type { OrchestratorView } from './session-view.js';

const OPENING = new Set(['start', 'edge', 'handoff', 'resume', 'join']);

/** A transition's time, in ms since the epoch. */
export const time = (t: NodeTransition): number => Date.parse(t.at);

/** The executions the transitions show, the ones still open at the end (by node), and the unanswered interrupts. */
export interface PlacedExecutions {
  executions: NodeExecution[];
  open: Map<string, NodeExecution[]>;
  waiting: NodeTransition[];
}

/**
 * Places each execution on the run's clock (ms since `t0`): a transition into a node opens an
 * execution at its time; the next transition out of that node closes it; a resume stops the ones
 * the run was inside.
 */
export function placeExecutions(transitions: readonly NodeTransition[], t0: number): PlacedExecutions {
  const executions: NodeExecution[] = [];
  const open = new Map<string, NodeExecution[]>();
  const waiting: NodeTransition[] = [];
  for (const t of transitions) {
    if (t.kind === 'interrupt') waiting.push(t);
    if (t.kind === 'resume') {
      waiting.length = 0;
      // The run stopped (a crash, a cancellation, an interrupt) while these ran; they start over now.
      for (const exec of t.to === null ? [...open.values()].flat() : (open.get(t.to) ?? [])) {
        exec.durationMs = Math.max(0, time(t) - t0 - exec.startMs);
        exec.status = 'stopped';
      }
      if (t.to === null) open.clear();
      else open.delete(t.to);
    }
    if (t.from !== null && t.kind !== 'resume') {
      const exec = open.get(t.from)?.shift();
      if (exec) {
        exec.durationMs = Math.max(0, time(t) - t0 - exec.startMs);
        exec.status = t.kind === 'fail' ? 'failed' : t.kind === 'interrupt' ? 'interrupted' : 'completed';
      }
    }
    if (t.to !== null && OPENING.has(t.kind)) {
      const exec: NodeExecution = {
        nodeId: t.to,
        startMs: Math.max(0, time(t) - t0),
        durationMs: undefined,
        status: 'running',
        tokens: undefined,
        via: t,
      };
      executions.push(exec);
      open.set(t.to, [...(open.get(t.to) ?? []), exec]);
    }
  }
  return { executions, open, waiting };
}

/**
 * Executions still open at the end take their duration from the node's stored result when the run
 * finished, else they are running (or stopped, or interrupted, as the run is).
 */
export function settleOpenExecutions(
  run: OrchestratorView,
  open: ReadonlyMap<string, readonly NodeExecution[]>,
  results: Record<string, NodeResultView>,
): void {
  const finished = run.status === 'completed' || run.status === 'failed';
  for (const [nodeId, list] of open) {
    for (const exec of list) {
      const result = results[nodeId];
      if (finished && result?.executionTimeMs !== undefined) {
        exec.durationMs = result.executionTimeMs;
        exec.status = result.status;
      } else if (run.status !== 'executing') exec.status = run.status === 'interrupted' ? 'interrupted' : 'stopped';
    }
  }
}

/**
 * Strands Agents stores no transitions: its execution order (a graph's `execution_order`, a swarm's
 * `node_history`) placed end to end, each as long as its stored execution time.
 */
export function strandsExecutions(run: OrchestratorView, results: Record<string, NodeResultView>): NodeExecution[] {
  const order = run.state['execution_order'] ?? run.state['node_history'];
  if (!Array.isArray(order)) return [];
  let clock = 0;
  return order.flatMap((entry, seq) => {
    const nodeId = typeof entry === 'string' ? entry : str(obj(entry)?.['node_id']);
    if (nodeId === '') return [];
    const result = results[nodeId];
    const via: NodeTransition = {
      seq,
      from: null,
      to: nodeId,
      kind: 'strands',
      reason: 'execution order stored by Strands Agents',
      at: '',
    };
    const exec: NodeExecution = {
      nodeId,
      startMs: clock,
      durationMs: result?.executionTimeMs,
      status: result?.status ?? 'completed',
      tokens: result?.tokens,
      via,
    };
    clock += result?.executionTimeMs ?? 0;
    return [exec];
  });
}
