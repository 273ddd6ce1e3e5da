/**
 * The swarm's active node waiting for a person: which interrupts the run waits for, how answers reach
 * it, and what its paused turn keeps. Pure functions over the run state (the transitions, the asking
 * and the answer prompt are core's).
 */
import {
  answerPrompt,
  matchResponses,
  resumeTransition,
  type Interrupt,
  type InterruptResponse,
  type InterruptResponseBlock,
  type JsonValue,
  type NewTransition,
} from '@skein/core';
import type { SwarmPause, SwarmRunState } from './swarm-state.js';

/** The interrupts the run waits for: those of its pause that no answer came for yet. */
export function waitingFor(state: SwarmRunState | undefined): Interrupt[] {
  if (state?.status !== 'interrupted' || !state.pause) return [];
  const answered = new Set(
    [...(state.answers?.before ?? []), ...(state.answers?.node ?? [])].map((a) => a.interruptId),
  );
  return state.pause.interrupts.filter((i) => !answered.has(i.id));
}

/**
 * Gives the answers to the paused node (throwing `InterruptResponseError` and changing nothing
 * unless every interrupt is answered and none is unknown) and returns the `resume` transition.
 */
export function resumeWithAnswers(state: SwarmRunState, responses: readonly InterruptResponse[]): NewTransition {
  const pause = state.pause as SwarmPause;
  const answered = matchResponses(waitingFor(state), responses);
  const mine = pause.interrupts.map((i) => ({ interruptId: i.id, response: answered.get(i.id) as JsonValue }));
  const before = (state.answers?.before ?? []).filter((a) => !answered.has(a.interruptId));
  state.answers = pause.stage === 'before' ? { before: [...before, ...mine], node: [] } : { before, node: mine };
  state.status = 'executing';
  return resumeTransition(pause.node, pause.interrupts);
}

/**
 * The unfinished turn the active node resumes: a paused one with the prompt carrying its answers, or
 * one a stop left (no prompt: the agent goes on from its history). `undefined`: run from the start.
 */
export function resumePoint(
  state: SwarmRunState,
  nodeId: string,
): { pause: SwarmPause; prompt: InterruptResponseBlock[] | undefined } | undefined {
  const { pause, answers } = state;
  if (pause?.node === nodeId && pause.stage === 'stopped') return { pause, prompt: undefined };
  const prompt = answerPrompt(answers?.node);
  if (!pause || pause.node !== nodeId || pause.stage !== 'node' || !prompt) return undefined;
  return { pause, prompt };
}

/** An agent's interrupts as the swarm reports them: the agent's name replaced by the node id. */
export function atNode(interrupts: readonly Interrupt[], nodeId: string): Interrupt[] {
  return interrupts.map((i) => ({ ...i, source: [nodeId, ...i.source.split('/').slice(1)].join('/') }));
}
