/**
 * A node of an orchestrator (Graph, Swarm) waiting for a person, as pure functions: the transitions
 * that record its pause and its resume, what `BeforeNodeCallEvent.interrupt` does for it, and the
 * prompt that resumes a node paused inside.
 */
import {
  InterruptRaised,
  interruptId,
  type Interrupt,
  type InterruptResponse,
  type InterruptResponseBlock,
} from '../interrupt/interrupt.js';
import type { NewTransition } from '../session/run-tail.js';
import type { JsonValue } from '../types/json.js';

const names = (interrupts: readonly Interrupt[]): string => interrupts.map((i) => i.name).join(', ');

/** The transition that records node `nodeId` pausing, before it ran (`before`) or at another stage. */
export function pauseTransition(nodeId: string, stage: string, interrupts: readonly Interrupt[]): NewTransition {
  const asked = [...new Set(interrupts.map((i) => i.name))].join(', ');
  return {
    from: nodeId,
    to: null,
    kind: 'interrupt',
    reason: `${stage === 'before' ? 'before running, asks' : 'asks'} for ${asked}`,
  };
}

/** The transition that records node `nodeId` resumed with the answers to `interrupts`. */
export function resumeTransition(nodeId: string, interrupts: readonly Interrupt[]): NewTransition {
  return { from: null, to: nodeId, kind: 'resume', reason: `answered ${names(interrupts)}` };
}

/**
 * What `BeforeNodeCallEvent.interrupt` does for node `nodeId`: the answer given on resume (`before`:
 * the answers for its hooks), or a pause. Ids are `<orchestrator id>/<node id>#<name>`.
 */
export function beforeNodeAsk(
  orchestratorId: string,
  nodeId: string,
  before: readonly InterruptResponse[] | undefined,
): (name: string, reason?: JsonValue) => JsonValue {
  return (name, reason) => {
    const id = interruptId(`${orchestratorId}/${nodeId}`, name);
    const answer = before?.find((a) => a.interruptId === id);
    if (answer) return answer.response;
    throw new InterruptRaised([{ id, name, reason: reason ?? null, source: nodeId }]);
  };
}

/** The prompt that resumes a node paused inside: its answers as `interruptResponse` blocks (`undefined`: none). */
export function answerPrompt(answers: readonly InterruptResponse[] | undefined): InterruptResponseBlock[] | undefined {
  if (!answers || answers.length === 0) return undefined;
  return answers.map((interruptResponse) => ({ interruptResponse }));
}
