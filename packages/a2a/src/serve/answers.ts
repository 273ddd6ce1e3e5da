/**
 * How a caller's message answers what a waiting task asked, as a pure function. A data part
 * `{ interruptResponses: [{ interruptId, response }] }` (or one `{ interruptId, response }`) answers by
 * id; when one question waits, a data part is its answer, and text is too (for an approval, text
 * starting with yes / y / approve / ok approves, anything else denies with the text as the message).
 */
import type { Part } from '@a2a-js/sdk';
import type { Interrupt, InterruptResponse, JsonObject, JsonValue } from '@skein/core';
import { partsData, partsText } from '../wire/parts.js';

/** The data-part key holding the questions of a waiting task (and, sent back, their answers). */
export const INTERRUPTS_KEY = 'skeinInterrupts';
/** The data-part key of answers by id. */
export const RESPONSES_KEY = 'interruptResponses';

const YES = /^\s*(y|yes|approve|approved|ok|okay|sure|true)\b/i;

/** The answers a message gives, or why it does not answer what waits. */
export type Answers = { ok: true; responses: InterruptResponse[] } | { ok: false; problem: string };

function isResponse(v: unknown): v is { interruptId: string; response: JsonValue } {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { interruptId?: unknown }).interruptId === 'string' &&
    'response' in v
  );
}

function byId(data: readonly JsonObject[]): InterruptResponse[] | undefined {
  for (const d of data) {
    const list = d[RESPONSES_KEY];
    if (Array.isArray(list) && list.every(isResponse))
      return (list as unknown as InterruptResponse[]).map((r) => ({
        interruptId: r.interruptId,
        response: r.response,
      }));
    if (isResponse(d)) return [{ interruptId: d.interruptId, response: d.response }];
  }
  return undefined;
}

/** Reads the answers to `pending` from a message's parts. */
export function answersOf(parts: readonly Part[], pending: readonly Interrupt[]): Answers {
  const ids = pending.map((i) => i.id);
  const data = partsData(parts);
  const explicit = byId(data);
  if (explicit) {
    const unknown = explicit.filter((r) => !ids.includes(r.interruptId)).map((r) => r.interruptId);
    const missing = ids.filter((id) => !explicit.some((r) => r.interruptId === id));
    if (unknown.length || missing.length) {
      const parts = [
        unknown.length ? `no question waits with id ${unknown.join(', ')}` : '',
        missing.length ? `no answer for ${missing.join(', ')}` : '',
      ].filter(Boolean);
      return { ok: false, problem: `The answers do not fit what the task waits for: ${parts.join('; ')}.` };
    }
    return { ok: true, responses: explicit };
  }
  const only = pending[0];
  if (pending.length !== 1 || !only) {
    return {
      ok: false,
      problem: `The task waits for ${pending.length} answers (${ids.join(', ')}); send a data part { "${RESPONSES_KEY}": [{ "interruptId": ..., "response": ... }] } answering each.`,
    };
  }
  const first = data[0];
  if (first) return { ok: true, responses: [{ interruptId: only.id, response: first }] };
  const text = partsText(parts).trim();
  if (!text)
    return { ok: false, problem: `The task waits for an answer to ${only.id} (${only.name}); the message holds none.` };
  return { ok: true, responses: [{ interruptId: only.id, response: textAnswer(only, text) }] };
}

function textAnswer(interrupt: Interrupt, text: string): JsonValue {
  if (interrupt.name !== 'approval') return text;
  return YES.test(text) ? { approved: true } : { approved: false, message: text };
}
