/**
 * Answers to interrupts as they arrive at a `respond` handler: parsed from the request, checked
 * against what the run waits for (an unknown id or a malformed approval is a 400/404 saying what
 * the handler takes), and turned into the `interruptResponse` blocks that resume the run.
 */
import { TerminalError } from '@restatedev/restate-sdk';
import type { Interrupt, InterruptResponse, InterruptResponseBlock, JsonValue } from '@skein/core';

/** What `respond` takes: one answer, a list of them, or `interruptResponse` blocks. */
export type RespondInput = InterruptResponse | InterruptResponse[] | InterruptResponseBlock[];

/** What a paused run or conversation waits for: the interrupts of its current pause. */
export interface PendingReply {
  /** Empty when nothing waits. */
  interrupts: Interrupt[];
}

const RESPOND_SHAPE =
  'respond takes { "interruptId": string, "response": JSON } (or a list of them), e.g. { "interruptId": "tool-1#approval", "response": { "approved": true } }';

function answerOf(value: unknown): InterruptResponse {
  const v = (
    typeof value === 'object' && value !== null && 'interruptResponse' in value
      ? (value as { interruptResponse: unknown }).interruptResponse
      : value
  ) as { interruptId?: unknown; response?: unknown } | null;
  if (typeof v !== 'object' || v === null || typeof v.interruptId !== 'string' || v.response === undefined) {
    throw new TerminalError(`${RESPOND_SHAPE} (got ${JSON.stringify(value)}).`, { errorCode: 400 });
  }
  return { interruptId: v.interruptId, response: v.response as JsonValue };
}

/** The answers in a `respond` request. */
export function answersOf(input: unknown): InterruptResponse[] {
  const list = Array.isArray(input) ? input.map(answerOf) : [answerOf(input)];
  if (list.length === 0) throw new TerminalError(`${RESPOND_SHAPE} (got an empty list).`, { errorCode: 400 });
  return list;
}

/** The interrupt each answer is for; throws a TerminalError when the run does not wait for it or an approval is malformed. */
export function matchPending(
  key: string,
  pending: readonly Interrupt[],
  answers: readonly InterruptResponse[],
): Interrupt[] {
  return answers.map((answer) => {
    const interrupt = pending.find((i) => i.id === answer.interruptId);
    if (!interrupt) {
      const waiting = pending.length === 0 ? 'nothing' : pending.map((i) => JSON.stringify(i.id)).join(', ');
      throw new TerminalError(
        `${key} waits for no interrupt ${JSON.stringify(answer.interruptId)}; it waits for ${waiting} (ask the pending handler).`,
        { errorCode: 404 },
      );
    }
    const r = answer.response;
    if (
      interrupt.name === 'approval' &&
      (typeof r !== 'object' ||
        r === null ||
        Array.isArray(r) ||
        typeof (r as { approved?: unknown }).approved !== 'boolean')
    ) {
      throw new TerminalError(
        `Interrupt ${JSON.stringify(interrupt.id)} asks for approval: answer { "approved": true | false, "message"?: string } (got ${JSON.stringify(r)}).`,
        { errorCode: 400 },
      );
    }
    return interrupt;
  });
}

/** The prompt that resumes a paused run with `values` (in the order of `interrupts`). */
export function resumePrompt(interrupts: readonly Interrupt[], values: readonly JsonValue[]): InterruptResponseBlock[] {
  return interrupts.map((i, k) => ({ interruptResponse: { interruptId: i.id, response: values[k] ?? null } }));
}
