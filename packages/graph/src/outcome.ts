/**
 * How a graph run ends, as a pure function of what it left: the status, the reason, and the
 * transition that records the end (none while it waits for a person).
 */
import { describeExceeded, type BudgetExceeded, type Interrupt, type NewTransition, type Status } from '@skein/core';
import type { GraphEdge } from './graph-types.js';
import { pendingInterrupts } from './paused-nodes.js';
import type { RunState } from './run-state.js';
import { strandedJoins } from './schedule.js';

/** What the run loop knows when the last node settled. */
export interface RunStops {
  /** A halt (cancellation, timeout, fail-fast, a limit), with its status and reason. */
  stop: { status: Status; reason: string } | undefined;
  /** A node waits for a person. */
  pausing: boolean;
  /** The budget limit that stopped the run. */
  budgetStop: BudgetExceeded | undefined;
}

/** The end of a run: its status, why, what it waits for, and the transition that records it. */
export interface RunOutcome {
  status: Status;
  reason: string | undefined;
  waitsFor: Interrupt[];
  /** `undefined` for a run that waits for a person (its pause has its own transition). */
  end: NewTransition | undefined;
}

export function decideOutcome(state: RunState, edges: readonly GraphEdge[], stops: RunStops): RunOutcome {
  const { stop, pausing, budgetStop } = stops;
  const unhandled = Object.values(state.results).filter(
    (r) => r.status === 'failed' && !state.handled.includes(r.nodeId),
  );
  const stranded = stop || pausing || budgetStop ? [] : strandedJoins(edges, state.joins, state.results, state.places);
  const waitsFor = pendingInterrupts(state);
  const status: Status =
    stop?.status ??
    (waitsFor.length > 0
      ? 'interrupted'
      : budgetStop
        ? 'budgetExceeded'
        : unhandled.length > 0 || stranded.length > 0
          ? 'failed'
          : 'completed');
  const reason =
    stop?.reason ??
    (status === 'budgetExceeded' && budgetStop
      ? `Stopped because ${describeExceeded(budgetStop)}; invoke the graph again (same session) with a larger budget to resume.`
      : undefined) ??
    (unhandled.length > 0
      ? `No edge routes around failed node(s): ${unhandled.map((r) => `${r.nodeId} (${r.error ?? 'failed'})`).join('; ')}`
      : stranded.length > 0
        ? `A join never fired: ${stranded.join('; ')}`
        : undefined);
  const end: NewTransition | undefined =
    status === 'interrupted'
      ? undefined
      : {
          from: state.executionOrder[state.executionOrder.length - 1] ?? null,
          to: null,
          kind: status === 'completed' ? 'complete' : status === 'budgetExceeded' ? 'budget' : 'fail',
          reason: reason ?? 'every reachable node ran',
        };
  return { status, reason, waitsFor: status === 'interrupted' ? waitsFor : [], end };
}
