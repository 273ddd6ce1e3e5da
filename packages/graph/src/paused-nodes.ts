/**
 * The graph's nodes waiting for a person, as pure functions over the run state: which interrupts the
 * run waits for, and how answers reach the paused nodes (the transitions and the asking are core's).
 */
import {
  matchResponses,
  resumeTransition,
  type Interrupt,
  type InterruptResponse,
  type JsonValue,
  type NewTransition,
} from '@skein/core';
import type { Answers, RunState } from './run-state.js';

/** Every interrupt the run waits for, node by node in the order they paused. */
export function pendingInterrupts(state: RunState): Interrupt[] {
  return Object.values(state.paused).flatMap((p) => p.interrupts);
}

/**
 * Gives the answers to the paused nodes and puts them first among the waiting ones; returns their
 * `resume` transitions. Throws `InterruptResponseError` (changing nothing) unless every pending
 * interrupt is answered and no answer is for an unknown id.
 */
export function resumePaused(state: RunState, responses: readonly InterruptResponse[]): NewTransition[] {
  const answered = matchResponses(pendingInterrupts(state), responses);
  const transitions: NewTransition[] = [];
  const resumed = Object.entries(state.paused).map(([nodeId, paused]) => {
    const mine = paused.interrupts.map((i) => ({ interruptId: i.id, response: answered.get(i.id) as JsonValue }));
    const earlier: Answers = state.answers[nodeId] ?? { before: [], node: [] };
    state.answers[nodeId] =
      paused.stage === 'before'
        ? { before: [...earlier.before.filter((a) => !answered.has(a.interruptId)), ...mine], node: [] }
        : { before: earlier.before, node: mine };
    transitions.push(resumeTransition(nodeId, paused.interrupts));
    return { nodeId, sources: paused.sources };
  });
  state.paused = {};
  state.waiting = [...resumed, ...state.waiting.filter((a) => !resumed.some((r) => r.nodeId === a.nodeId))];
  state.status = 'executing';
  return transitions;
}
