/**
 * Core's stream events -> the server's events: a pure table by event type. Orchestrators' `nodeStream`
 * wrappers are unwrapped into `path`, agents-as-tools' `toolStream` wrappers too (their events marked
 * `nested`); `modelStreamEvent` (the provider's raw events, repeated by
 * `textDelta` and friends) is not sent, nor a `modelAttempt`'s model object (its `modelId` is); bytes become base64 (`{ __bytes_encoded__, data }`, as stores keep them).
 */
import {
  withBytesEncoded,
  type GuardrailTrip,
  type Message,
  type NodeResult,
  type ToolResult,
  errorMessage,
} from '@skein/core';
import type { ServerEvent, SpeakerPath } from './server-events.js';

/** An event of an agent or orchestrator stream, loosely typed (nested events come from either). */
export type CoreEvent = { readonly type: string } & Record<string, unknown>;

type Mapper = (event: CoreEvent, path: SpeakerPath, out: ServerEvent[]) => void;

const errorText = (error: unknown): string => errorMessage(error);

const jsonSafe = <T>(value: T): T => withBytesEncoded(value) as T;

const MAPPERS: Record<string, Mapper> = {
  textDelta: (e, path, out) => out.push({ type: 'textDelta', path, data: String(e['data']) }),
  reasoningDelta: (e, path, out) => out.push({ type: 'reasoningDelta', path, data: String(e['data']) }),
  toolStart: (e, path, out) => out.push({ type: 'toolStart', path, toolUse: e['toolUse'] as never }),
  toolResult: (e, path, out) =>
    out.push({
      type: 'toolResult',
      path,
      toolResult: jsonSafe(e['toolResult'] as ToolResult),
    }),
  messageAdded: (e, path, out) =>
    out.push({
      type: 'messageAdded',
      path,
      message: jsonSafe(e['message'] as Message),
    }),
  modelRetry: (e, path, out) =>
    out.push({
      type: 'modelRetry',
      path,
      attempt: Number(e['attempt']),
      delayMs: Number(e['delayMs']),
      error: errorText(e['error']),
      discardedPartialAnswer: e['discardedPartialAnswer'] === true,
    }),
  interrupt: (e, path, out) => out.push({ type: 'interrupt', path, interrupts: e['interrupts'] as never }),
  budgetWarning: (e, path, out) => out.push({ type: 'budgetWarning', path, warning: e['warning'] as never }),
  modelAttempt: (e, path, out) =>
    out.push({
      type: 'modelAttempt',
      path,
      modelId: String(e['modelId']),
      outcome: e['outcome'] as 'answered' | 'failed' | 'skipped',
      ...(e['error'] === undefined ? {} : { error: errorText(e['error']) }),
      startedAt: Number(e['startedAt']),
      durationMs: Number(e['durationMs']),
    }),
  warning: (e, path, out) =>
    out.push({
      type: 'warning',
      path,
      code: String(e['code']),
      message: String(e['message']),
    }),
  nodeStart: (e, path, out) => out.push({ type: 'nodeStart', path, nodeId: String(e['nodeId']) }),
  nodeStop: (e, path, out) => {
    const result = e['result'] as NodeResult;
    out.push({
      type: 'nodeStop',
      path,
      nodeId: String(e['nodeId']),
      status: result.status,
      text: result.text,
      ...(result.error !== undefined ? { error: result.error } : {}),
      executionTimeMs: result.executionTimeMs,
    });
  },
  transition: (e, path, out) =>
    out.push({
      type: 'transition',
      path,
      transition: e['transition'] as never,
    }),
  guardrailTripped: (e, path, out) => {
    const { type: _type, ...trip } = e;
    out.push({
      type: 'guardrailTripped',
      path,
      trip: trip as unknown as GuardrailTrip,
    });
  },
  guardrailRetry: (e, path, out) =>
    out.push({
      type: 'guardrailRetry',
      path,
      guardrail: String(e['guardrail']),
      feedback: String(e['feedback']),
      attempt: Number(e['attempt']),
    }),
  textRetracted: (e, path, out) =>
    out.push({
      type: 'textRetracted',
      path,
      guardrail: String(e['guardrail']),
      action: e['action'] as 'block' | 'retry' | 'rewrite',
    }),
  nodeStream: (e, path, out) => {
    const inner = e['event'];
    if (isCoreEvent(inner)) toServerEvents(inner, [...path, String(e['nodeId'])], out);
  },
  toolStream: (e, path, out) => {
    // An agent used as a tool, maybe itself calling one: each wrapper adds the name of one nested agent.
    let inner = e['event'];
    let layers = 1;
    while (isCoreEvent(inner) && inner.type === 'toolStream') {
      inner = inner['event'];
      layers++;
    }
    if (!isCoreEvent(inner)) return;
    const names = String(inner['path']).split('/').slice(-layers);
    const from = out.length;
    toServerEvents(inner, [...path, ...names], out);
    for (let i = from; i < out.length; i++) (out[i] as { nested?: true }).nested = true;
  },
};

function isCoreEvent(value: unknown): value is CoreEvent {
  return typeof value === 'object' && value !== null && 'type' in value;
}

/** Appends to `out` the server events for one core event from the speaker at `path` (none for raw model events). */
export function toServerEvents(event: CoreEvent, path: SpeakerPath, out: ServerEvent[]): ServerEvent[] {
  MAPPERS[event.type]?.(event, path, out);
  return out;
}
