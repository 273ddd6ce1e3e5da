/**
 * Reading a remote task, as pure functions: its answer (artifacts, else its status message), the
 * usage a skein server reports, what it asks (a skein server lists its interrupts in a data part),
 * the question as a skein interrupt, and the message parts that answer it.
 */
import type { Message, Part, Task } from '@a2a-js/sdk';
import type { JsonObject, JsonValue } from '@skein/core';
import { INTERRUPTS_KEY, RESPONSES_KEY } from '../serve/answers.js';
import { dataPart, partsData, partsText, textPart } from '../wire/parts.js';
import type { CallRecord } from './call-store.js';

/** The text of a task's answer: its artifacts' text, else its status message's. */
export function answerText(task: Pick<Task, 'artifacts' | 'status'>): string {
  const fromArtifacts = task.artifacts
    .map((a) => partsText(a.parts))
    .filter(Boolean)
    .join('\n');
  return fromArtifacts || partsText(task.status?.message?.parts ?? []);
}

/** The text of a message. */
export function messageText(message: Pick<Message, 'parts'>): string {
  return partsText(message.parts);
}

/** The usage a skein server puts in the task's metadata (`skein.usage`). */
export function usageOf(metadata: Record<string, unknown> | undefined): CallRecord['usage'] | undefined {
  const u = (metadata?.['skein'] as { usage?: Record<string, unknown> } | undefined)?.usage;
  const n = (k: string): number => (typeof u?.[k] === 'number' ? (u[k] as number) : 0);
  if (!u) return undefined;
  return { inputTokens: n('inputTokens'), outputTokens: n('outputTokens'), totalTokens: n('totalTokens') };
}

/** What a waiting task asks: its status text and the interrupts a skein server listed. */
export function questionOfTask(task: Pick<Task, 'status'>): { text: string; interrupts: JsonValue[] } {
  const parts: Part[] = task.status?.message?.parts ?? [];
  const listed = partsData(parts).find((d) => Array.isArray(d[INTERRUPTS_KEY]))?.[INTERRUPTS_KEY];
  return { text: partsText(parts), interrupts: Array.isArray(listed) ? listed : [] };
}

interface Listed {
  id: string;
  name: string;
  reason: JsonValue;
  source: string;
}

function listed(interrupts: readonly JsonValue[]): Listed[] {
  return interrupts.filter(
    (i): i is JsonObject => typeof i === 'object' && i !== null && !Array.isArray(i) && typeof i['id'] === 'string',
  ) as unknown as Listed[];
}

/** The skein interrupt (name, reason) that stands for the task's question in round `round`. */
export function interruptFor(
  question: { text: string; interrupts: JsonValue[] },
  round: number,
  remote: JsonObject,
): { name: string; reason: JsonValue } {
  const list = listed(question.interrupts);
  const one = list.length === 1 ? list[0] : undefined;
  const base = one ? one.name : 'input';
  const name = round > 1 ? `${base}-${round}` : base;
  const r = one?.reason;
  if (r && typeof r === 'object' && !Array.isArray(r))
    return { name, reason: { ...r, question: question.text, remote } };
  return {
    name,
    reason: {
      question: question.text,
      ...(list.length > 1 ? { interrupts: list as unknown as JsonValue } : {}),
      remote,
    },
  };
}

function spoken(response: JsonValue): string {
  if (typeof response === 'string') return response;
  const a = response as { approved?: unknown; message?: unknown } | null;
  if (a && typeof a === 'object' && typeof a.approved === 'boolean')
    return a.approved ? 'yes' : `no${typeof a.message === 'string' ? `: ${a.message}` : ''}`;
  return JSON.stringify(response);
}

/**
 * The parts answering a question: text for any agent, and for a skein server the answers by id
 * (one question: `response` answers it; several: `response` maps each id to its answer).
 * `undefined` when several questions wait and `response` does not answer each.
 */
export function answerParts(response: JsonValue, interrupts: readonly JsonValue[]): Part[] | undefined {
  const list = listed(interrupts);
  const parts: Part[] = [textPart(spoken(response))];
  if (list.length === 0) {
    if (response && typeof response === 'object' && !Array.isArray(response)) parts.push(dataPart(response));
    return parts;
  }
  let responses: { interruptId: string; response: JsonValue }[];
  if (list.length === 1) responses = [{ interruptId: (list[0] as Listed).id, response }];
  else {
    const map = response as JsonObject | null;
    if (!map || typeof map !== 'object' || Array.isArray(map) || !list.every((i) => i.id in map)) return undefined;
    responses = list.map((i) => ({ interruptId: i.id, response: map[i.id] as JsonValue }));
  }
  parts.push(dataPart({ [RESPONSES_KEY]: responses as unknown as JsonValue }));
  return parts;
}
