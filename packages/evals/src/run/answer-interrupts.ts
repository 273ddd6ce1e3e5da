/** Finds the scripted answer for each interrupt a run raised (pure). */
import type { Interrupt, InterruptResponseBlock, JsonValue } from '@skein/core';
import type { InterruptAnswer } from '../case/eval-case.js';
import type { InterruptRecord } from './case-run.js';

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;

/** The interrupt as the results file keeps it: the tool and input of an approval read from its tool use or reason. */
function interruptRecord(interrupt: Interrupt): InterruptRecord {
  const tool = interrupt.toolUse?.name ?? field(interrupt.reason, 'tool');
  const input = interrupt.toolUse?.input ?? field(interrupt.reason, 'input');
  return {
    id: interrupt.id,
    name: interrupt.name,
    source: interrupt.source,
    ...(typeof tool === 'string' ? { tool } : {}),
    ...(input === undefined ? {} : { input: input as JsonValue }),
    reason: interrupt.reason,
  };
}

/** What an answer sends: `{ approved, message? }` for `approve`, else its `response`. */
function responseOf(answer: InterruptAnswer): JsonValue {
  if (answer.approve === undefined) return answer.response ?? null;
  return answer.message === undefined
    ? { approved: answer.approve }
    : { approved: answer.approve, message: answer.message };
}

export interface Answered {
  /** The resume prompt, when every interrupt found an answer. */
  prompt: InterruptResponseBlock[] | undefined;
  /** Every interrupt, with its answer when it got one. */
  records: InterruptRecord[];
}

/**
 * Answers `interrupts` from the turn's scripted `answers`: each interrupt takes the first unused
 * answer whose `name` and `tool` match; each answer is used once (`used` holds their indexes across
 * the turn's resumes).
 */
export function answerInterrupts(
  interrupts: readonly Interrupt[],
  answers: readonly InterruptAnswer[],
  used: Set<number>,
): Answered {
  const records: InterruptRecord[] = [];
  const prompt: InterruptResponseBlock[] = [];
  for (const interrupt of interrupts) {
    const record = interruptRecord(interrupt);
    const index = answers.findIndex(
      (a, i) =>
        !used.has(i) &&
        (a.name === undefined || a.name === record.name) &&
        (a.tool === undefined || a.tool === record.tool),
    );
    const answer = answers[index];
    if (answer) {
      used.add(index);
      record.answer = responseOf(answer);
      prompt.push({ interruptResponse: { interruptId: interrupt.id, response: record.answer } });
    }
    records.push(record);
  }
  return { prompt: prompt.length === interrupts.length ? prompt : undefined, records };
}
