/**
 * What an agent used as a tool does, in the UI message stream: `data-skein-nested` parts with its
 * `path` (never text or tool parts of the answer, so nested text never mixes into it). Each part has a
 * stable id that later chunks replace (the AI SDK keeps the last data of an id): its text so far
 * (`kind: 'text'`, one part per answer), a tool call (`kind: 'tool'`, `status` running, then done or
 * error) and what it asked (`kind: 'interrupt'`). Pure, over the turn's state.
 */
import type { ServerEvent } from '../stream/server-events.js';
import type { UiChunk } from './ui-chunks.js';

/** What the nested parts remember within one turn: each speaker's open text part. */
export interface NestedUiState {
  /** Open text part by path key: its id and text so far. */
  text: Map<string, { id: string; text: string }>;
  /** Tool calls by part id: their name and input, repeated when they end (a part's data is replaced whole). */
  tools: Map<string, { tool: string; input: unknown }>;
  next: number;
}

/** A fresh nested-part state. */
export function newNestedUiState(): NestedUiState {
  return { text: new Map(), tools: new Map(), next: 0 };
}

/** Appends the `data-skein-nested` chunks for one event of an agent used as a tool. */
export function mapNestedEvent(state: NestedUiState, event: ServerEvent, out: UiChunk[]): void {
  if (!('path' in event)) return;
  const path = [...event.path];
  const key = path.join('/');
  const part = (id: string, data: Record<string, unknown>): number =>
    out.push({ type: 'data-skein-nested', id, data: { path, ...data } });
  switch (event.type) {
    case 'textDelta': {
      const open = state.text.get(key) ?? {
        id: `nested-text-${state.next++}`,
        text: '',
      };
      open.text += event.data;
      state.text.set(key, open);
      part(open.id, { kind: 'text', text: open.text });
      return;
    }
    case 'textRetracted': {
      const open = state.text.get(key);
      if (open) part(open.id, { kind: 'text', text: (open.text = '') });
      return;
    }
    case 'messageAdded':
      if (event.message.role === 'assistant') state.text.delete(key);
      return;
    case 'toolStart': {
      const id = `nested-tool-${key}-${event.toolUse.toolUseId}`;
      const call = { tool: event.toolUse.name, input: event.toolUse.input };
      state.tools.set(id, call);
      part(id, { kind: 'tool', ...call, status: 'running' });
      return;
    }
    case 'toolResult': {
      const id = `nested-tool-${key}-${event.toolResult.toolUseId}`;
      const call = state.tools.get(id);
      state.tools.delete(id);
      part(id, {
        kind: 'tool',
        ...call,
        status: event.toolResult.status === 'success' ? 'done' : 'error',
      });
      return;
    }
    case 'interrupt':
      for (const interrupt of event.interrupts)
        part(`nested-interrupt-${interrupt.id}`, {
          kind: 'interrupt',
          name: interrupt.name,
          source: interrupt.source,
        });
      return;
    default:
      return;
  }
}
