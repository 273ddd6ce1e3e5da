/**
 * Pausing a graph for a person and resuming it, as pure functions over the run state: which
 * interrupts wait, how answers reach the paused nodes, and the transitions both record.
 */
import {
  InterruptRaised,
  interruptId,
  matchResponses,
  type Interrupt,
  type InterruptResponse,
  type JsonValue,
  type NewTransition,
} from '@skein/core';
import type { Answers, PauseStage, RunState } from './run-state.js';

/** Every interrupt the run waits for, node by node in the order they paused. */
export function pendingInterrupts(state: RunState): Interrupt[] {
  return Object.values(state.paused).flatMap((p) => p.interrupts);
}

/** The transition that records a node pausing. */
export function pauseTransition(nodeId: string, stage: PauseStage, interrupts: readonly Interrupt[]): NewTransition {
  const names = [...new Set(interrupts.map((i) => i.name))].join(', ');
  return {
    from: nodeId,
    to: null,
    kind: 'interrupt',
    reason: `${stage === 'before' ? 'before running, asks' : 'asks'} for ${names}`,
  };
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
    transitions.push({
      from: null,
      to: nodeId,
      kind: 'resume',
      reason: `answered ${paused.interrupts.map((i) => i.name).join(', ')}`,
    });
    return { nodeId, sources: paused.sources };
  });
  state.paused = {};
  state.waiting = [...resumed, ...state.waiting.filter((a) => !resumed.some((r) => r.nodeId === a.nodeId))];
  state.status = 'executing';
  return transitions;
}

/**
 * What `BeforeNodeCallEvent.interrupt` does for a node: the answer given on resume, or a pause. Ids
 * are `<orchestrator id>/<node id>#<name>`.
 */
export function beforeNodeAsk(
  orchestratorId: string,
  nodeId: string,
  answers: Answers | undefined,
): (name: string, reason?: JsonValue) => JsonValue {
  return (name, reason) => {
    const id = interruptId(`${orchestratorId}/${nodeId}`, name);
    const answer = answers?.before.find((a) => a.interruptId === id);
    if (answer) return answer.response;
    throw new InterruptRaised([{ id, name, reason: reason ?? null, source: nodeId }]);
  };
}

/** The prompt that resumes a node paused inside: its answers as `interruptResponse` blocks. */
export function answerPrompt(answers: Answers | undefined): { interruptResponse: InterruptResponse }[] | undefined {
  if (!answers || answers.node.length === 0) return undefined;
  return answers.node.map((interruptResponse) => ({ interruptResponse }));
}
