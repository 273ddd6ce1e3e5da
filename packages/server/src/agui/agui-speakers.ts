/**
 * The AG-UI run's state and its speakers: each speaker (a path) has its own open text and reasoning
 * message, closed when it calls a tool, ends its answer or the run ends; tool calls are
 * `TOOL_CALL_START/ARGS/END`. Pure helpers over the state the mapping (`agui-mapper.ts`) carries.
 */
import { EventType, type AGUIEvent, type JsonPatchOperation } from '@ag-ui/core';
import type { SpeakerPath } from '../stream/server-events.js';
import type { RunView } from './agui-run-view.js';
import { newSubagentState, noteToolCall, type SubagentState } from './agui-subagents.js';

/** The AG-UI run a turn is streamed as. */
export interface AguiRun {
  threadId: string;
  runId: string;
}

/** What the mapping remembers within one run. */
export interface AguiState {
  readonly run: AguiRun;
  /** Prefix of message ids: unique per run attempt, the same for every client of it. */
  prefix: string;
  /** The target's name: who speaks in an agent's turn. */
  name: string;
  /** The turn answers interrupts: results of tool calls the client saw in the run before. */
  answering: boolean;
  /** Open text / reasoning message id by speaker path key. */
  text: Map<string, string>;
  reasoning: Map<string, string>;
  /** The last text message of each speaker (a tool call's parent message). */
  lastText: Map<string, string>;
  /** Tool calls started in this run. */
  tools: Set<string>;
  /** Open steps (node paths). */
  steps: Set<string>;
  /** The orchestrator's run (graphs and swarms), the shared state. */
  view: RunView | undefined;
  /** Agents used as tools: AG-UI subagents (see `agui-subagents.ts`). */
  sub: SubagentState;
  next: number;
  ended: boolean;
}

/** A fresh state for one client's stream of `run`. */
export function newAguiState(run: AguiRun): AguiState {
  return {
    run,
    prefix: run.runId,
    name: '',
    answering: false,
    text: new Map(),
    reasoning: new Map(),
    lastText: new Map(),
    tools: new Set(),
    steps: new Set(),
    view: undefined,
    sub: newSubagentState(),
    next: 0,
    ended: false,
  };
}

/** A speaker path as one key (`billing/refund`). */
export const keyOf = (path: SpeakerPath): string => path.join('/');

/** A `CUSTOM` event named `skein.<name>`. */
export function custom(name: string, value: unknown): AGUIEvent {
  return { type: EventType.CUSTOM, name: `skein.${name}`, value };
}

/** A `STATE_DELTA` of the run view, when there is one and it changed. */
export function delta(state: AguiState, ops: JsonPatchOperation[], out: AGUIEvent[]): void {
  if (state.view && ops.length > 0) out.push({ type: EventType.STATE_DELTA, delta: ops });
}

/** Ends a speaker's open text and reasoning messages. */
export function closeSpeaker(state: AguiState, key: string, out: AGUIEvent[]): void {
  const text = state.text.get(key);
  if (text !== undefined) out.push({ type: EventType.TEXT_MESSAGE_END, messageId: text });
  const reasoning = state.reasoning.get(key);
  if (reasoning !== undefined) {
    out.push({ type: EventType.REASONING_MESSAGE_END, messageId: reasoning });
    out.push({ type: EventType.REASONING_END, messageId: reasoning });
  }
  state.text.delete(key);
  state.reasoning.delete(key);
}

/** Ends every open message and step (the run ends). */
export function closeAll(state: AguiState, out: AGUIEvent[]): void {
  for (const key of new Set([...state.text.keys(), ...state.reasoning.keys()])) closeSpeaker(state, key, out);
  for (const step of state.steps) out.push({ type: EventType.STEP_FINISHED, stepName: step });
  state.steps.clear();
}

/** The speaker's open text message id, started (into `out`) if none is open. */
export function openText(state: AguiState, path: SpeakerPath, out: AGUIEvent[]): string {
  const key = keyOf(path);
  const open = state.text.get(key);
  if (open !== undefined) return open;
  const messageId = `${state.prefix}:m${state.next++}`;
  state.text.set(key, messageId);
  state.lastText.set(key, messageId);
  const name = path.length > 0 ? key : state.name;
  out.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant', ...(name ? { name } : {}) });
  return messageId;
}

/** The speaker's open reasoning message id, started (into `out`) if none is open. */
export function openReasoning(state: AguiState, path: SpeakerPath, out: AGUIEvent[]): string {
  const key = keyOf(path);
  const open = state.reasoning.get(key);
  if (open !== undefined) return open;
  const messageId = `${state.prefix}:r${state.next++}`;
  state.reasoning.set(key, messageId);
  out.push({ type: EventType.REASONING_START, messageId });
  out.push({ type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning' });
  return messageId;
}

/** A tool call as `TOOL_CALL_START/ARGS/END`, after the speaker's text (its parent message). */
export function toolCall(
  state: AguiState,
  path: SpeakerPath,
  use: { toolUseId: string; name: string; input: unknown },
  out: AGUIEvent[],
): void {
  const key = keyOf(path);
  closeSpeaker(state, key, out);
  state.tools.add(use.toolUseId);
  noteToolCall(state.sub, path, use.toolUseId, use.name);
  const parent = state.lastText.get(key);
  out.push({
    type: EventType.TOOL_CALL_START,
    toolCallId: use.toolUseId,
    toolCallName: use.name,
    ...(parent !== undefined ? { parentMessageId: parent } : {}),
  });
  out.push({ type: EventType.TOOL_CALL_ARGS, toolCallId: use.toolUseId, delta: JSON.stringify(use.input ?? {}) });
  out.push({ type: EventType.TOOL_CALL_END, toolCallId: use.toolUseId });
}

/** Drops what a speaker's current answer showed: its message is closed and a custom event names it. */
export function retract(state: AguiState, path: SpeakerPath, out: AGUIEvent[], data: Record<string, unknown>): void {
  const key = keyOf(path);
  const messageId = state.text.get(key);
  closeSpeaker(state, key, out);
  out.push(custom('textRetracted', { path: [...path], ...(messageId !== undefined ? { messageId } : {}), ...data }));
}
