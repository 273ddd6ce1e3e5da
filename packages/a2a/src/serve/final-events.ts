/**
 * The events that end a run of a task, as a pure function of its outcome: the answer as an artifact
 * and `completed`; the questions as an `input-required` status (text for people, a data part for
 * programs); `failed` or `canceled` with the reason.
 */
import type { Artifact, Message, Part, StreamResponse, TaskState } from '@a2a-js/sdk';
import type { Interrupt, JsonObject, JsonValue } from '@skein/core';
import { dataPart, textPart } from '../wire/parts.js';
import { newMessage, ROLE, STATE, statusEvent } from '../wire/protocol.js';
import { INTERRUPTS_KEY } from './answers.js';
import type { Outcome } from './outcome.js';

/** The artifact id of a task's answer. */
const ANSWER_ARTIFACT = 'answer';

/** One line asking a person what an interrupt needs. */
function questionText(i: Interrupt): string {
  const reason = i.reason as { tool?: unknown; input?: unknown } | null;
  if (i.name === 'approval' && reason && typeof reason === 'object' && typeof reason.tool === 'string')
    return `${i.source} asks for approval to run ${reason.tool} ${JSON.stringify(reason.input ?? {})}. Answer yes or no.`;
  return `${i.source} asks for ${i.name}${i.reason === null ? '' : `: ${typeof i.reason === 'string' ? i.reason : JSON.stringify(i.reason)}`}`;
}

/** The interrupts as JSON for a data part (the tool use left out: it is the served agent's own business). */
function interruptsJson(interrupts: readonly Interrupt[]): JsonValue {
  return interrupts.map((i) => ({ id: i.id, name: i.name, reason: i.reason, source: i.source }));
}

/** The run's usage as task metadata. */
export function usageMetadata(outcome: Outcome): JsonObject {
  const u = outcome.usage;
  return { skein: { usage: { inputTokens: u.inputTokens, outputTokens: u.outputTokens, totalTokens: u.totalTokens } } };
}

function agentMessage(parts: Part[], taskId: string, contextId: string): Message {
  return newMessage(ROLE.agent, parts, { taskId, contextId });
}

/** The events that end the run, in order. */
export function finalEvents(taskId: string, contextId: string, outcome: Outcome): StreamResponse[] {
  const metadata = usageMetadata(outcome);
  const status = (state: TaskState, parts: Part[]): StreamResponse => ({
    payload: {
      $case: 'statusUpdate',
      value: statusEvent(taskId, contextId, state, agentMessage(parts, taskId, contextId), metadata),
    },
  });
  switch (outcome.kind) {
    case 'completed': {
      const artifact: Artifact = {
        artifactId: ANSWER_ARTIFACT,
        name: 'answer',
        description: 'The final answer.',
        parts: [textPart(outcome.text)],
        metadata: undefined,
        extensions: [],
      };
      return [
        {
          payload: {
            $case: 'artifactUpdate',
            value: { taskId, contextId, artifact, append: false, lastChunk: true, metadata: undefined },
          },
        },
        status(STATE.completed, [textPart(outcome.text)]),
      ];
    }
    case 'waiting':
      return [
        status(STATE.inputRequired, [
          textPart(outcome.interrupts.map(questionText).join('\n')),
          dataPart({ [INTERRUPTS_KEY]: interruptsJson(outcome.interrupts) }),
        ]),
      ];
    case 'canceled':
      return [status(STATE.canceled, [textPart('The task was canceled.')])];
    case 'failed':
      return [status(STATE.failed, [textPart(outcome.reason)])];
  }
}
