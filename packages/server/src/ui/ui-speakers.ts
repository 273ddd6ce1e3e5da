/**
 * The UI message stream's state within one turn and its speakers: each speaker (a path) has its own
 * open text and reasoning part, closed when it calls a tool, ends its answer or the turn ends; tool
 * results as the SDK's tool output or error. Pure helpers over the state the mapping (`ui-mapper.ts`)
 * carries.
 */
import type { ToolResult } from '@skein/core';
import type { SpeakerPath } from '../stream/server-events.js';
import type { UiChunk } from './ui-chunks.js';
import { newNestedUiState, type NestedUiState } from './ui-nested.js';

/** What the mapping remembers within one turn. */
export interface UiState {
  /** The turn answers interrupts: its tool outputs belong to parts the client already holds. */
  answering: boolean;
  /** The turn runs an agent (one speaker): model calls are steps, a discarded retry resets its step. */
  single: boolean;
  stepOpen: boolean;
  /** Open text / reasoning part id by speaker path key. */
  text: Map<string, string>;
  reasoning: Map<string, string>;
  /** Tool calls the client has a part for. */
  tools: Set<string>;
  /** Executions per node path key, for the ids of `data-skein-node` parts. */
  nodeRuns: Map<string, number>;
  next: number;
  ended: boolean;
  /** Agents used as tools: their `data-skein-nested` parts (see `ui-nested.ts`). */
  nested: NestedUiState;
}

/** A fresh state for one turn's stream. */
export function newUiState(): UiState {
  return {
    answering: false,
    single: true,
    stepOpen: false,
    text: new Map(),
    reasoning: new Map(),
    tools: new Set(),
    nodeRuns: new Map(),
    next: 0,
    ended: false,
    nested: newNestedUiState(),
  };
}

/** A speaker path as one key (`billing/refund`). */
export const keyOf = (path: SpeakerPath): string => path.join('/');

/** Ends a speaker's open text and reasoning parts. */
export function closeSpeaker(state: UiState, key: string, out: UiChunk[]): void {
  const text = state.text.get(key);
  if (text !== undefined) out.push({ type: 'text-end', id: text });
  const reasoning = state.reasoning.get(key);
  if (reasoning !== undefined) out.push({ type: 'reasoning-end', id: reasoning });
  state.text.delete(key);
  state.reasoning.delete(key);
}

/** Ends every open part (the turn ends). */
export function closeAll(state: UiState, out: UiChunk[]): void {
  for (const key of new Set([...state.text.keys(), ...state.reasoning.keys()])) closeSpeaker(state, key, out);
}

/** Starts a step (`start-step`) when none is open. */
function openStep(state: UiState, out: UiChunk[]): void {
  if (state.single && !state.stepOpen) {
    out.push({ type: 'start-step' });
    state.stepOpen = true;
  }
}

/** Opens a text or reasoning part for `path` (announcing the speaker) and returns its id. */
export function partFor(state: UiState, kind: 'text' | 'reasoning', path: SpeakerPath, out: UiChunk[]): string {
  const key = keyOf(path);
  const open = state[kind].get(key);
  if (open !== undefined) return open;
  openStep(state, out);
  if (!state.text.has(key) && !state.reasoning.has(key))
    out.push({
      type: 'data-skein-speaker',
      id: `speaker-${state.next}`,
      data: { path: [...path] },
    });
  const id = `${kind === 'text' ? 't' : 'r'}${state.next++}`;
  state[kind].set(key, id);
  out.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', id });
  return id;
}

/** A tool result as the SDK's tool output: its text when it is all text, else each block's value. */
export function toolOutput(result: ToolResult): unknown {
  const texts = result.content.flatMap((c) => ('text' in c ? [c.text] : []));
  if (texts.length === result.content.length) return texts.join('\n');
  return result.content.map((c) => ('json' in c ? c.json : 'text' in c ? c.text : '[binary content]'));
}

/** A failed tool result's error text. */
export function toolError(result: ToolResult): string {
  return result.content
    .map((c) => ('text' in c ? c.text : JSON.stringify('json' in c ? c.json : '[binary]')))
    .join('\n');
}

/**
 * Drops what a speaker's current answer showed: in an agent's turn the step is reset (the SDK drops
 * its parts), in an orchestrator's the part is closed and a `data-skein-retract` part names it.
 */
export function retract(state: UiState, path: SpeakerPath, out: UiChunk[], data: Record<string, unknown>): void {
  const key = keyOf(path);
  const text = state.text.get(key);
  if (state.single && state.stepOpen) {
    state.text.delete(key);
    state.reasoning.delete(key);
    out.push({ type: 'reset-step' });
    return;
  }
  closeSpeaker(state, key, out);
  if (text !== undefined)
    out.push({
      type: 'data-skein-retract',
      id: `retract-${state.next++}`,
      data: { path: [...path], part: text, ...data },
    });
}
