/**
 * The server's events -> the AI SDK UI message stream: a pure, table-driven mapping (one function per
 * event type) over an explicit state, so every client that re-joins a turn computes the same chunks
 * from the same events. Text and reasoning become parts per speaker (graph nodes in parallel each have
 * their own); who speaks is a `data-skein-speaker` part before what they say; tools are dynamic tool
 * parts; a tool waiting for approval is the SDK's own `tool-approval-request`; nodes, transitions and
 * other interrupts are `data-skein-*` parts; what agents used as tools do, `data-skein-nested` parts.
 */
import type { ServerEvent } from '../stream/server-events.js';
import type { UiChunk } from './ui-chunks.js';
import { mapNestedEvent } from './ui-nested.js';
import { closeSpeaker, closeAll, partFor, toolOutput, toolError, retract, keyOf, type UiState } from './ui-speakers.js';

const FINISH: Record<string, Extract<UiChunk, { type: 'finish' }>['finishReason']> = {
  completed: 'stop',
  interrupted: 'tool-calls',
  failed: 'error',
  cancelled: 'other',
  budgetExceeded: 'length',
  stopped: 'interrupted',
  blocked: 'content-filter',
};

type Handler<T extends ServerEvent['type']> = (
  state: UiState,
  event: Extract<ServerEvent, { type: T }>,
  out: UiChunk[],
) => void;
type Table = { [T in ServerEvent['type']]: Handler<T> };

const TABLE: Table = {
  turnStart: (state, e, out) => {
    state.single = e.kind === 'agents';
    state.answering = e.answering;
    out.push(state.answering ? { type: 'start' } : { type: 'start', messageId: `turn-${e.turn}` });
    out.push({
      type: 'data-skein-turn',
      id: 'turn',
      data: {
        turn: e.turn,
        attempt: e.attempt,
        resumed: e.resumed,
        kind: e.kind,
        name: e.name,
      },
    });
    if (!state.single && !state.answering) {
      out.push({ type: 'start-step' });
      state.stepOpen = true;
    }
  },
  textDelta: (state, e, out) => {
    out.push({
      type: 'text-delta',
      id: partFor(state, 'text', e.path, out),
      delta: e.data,
    });
  },
  reasoningDelta: (state, e, out) => {
    out.push({
      type: 'reasoning-delta',
      id: partFor(state, 'reasoning', e.path, out),
      delta: e.data,
    });
  },
  toolStart: (state, e, out) => {
    closeSpeaker(state, keyOf(e.path), out);
    state.tools.add(e.toolUse.toolUseId);
    out.push({
      type: 'tool-input-available',
      toolCallId: e.toolUse.toolUseId,
      toolName: e.toolUse.name,
      input: e.toolUse.input,
      dynamic: true,
      // Who calls it, in a graph or swarm (nodes side by side call tools in between each other's text).
      ...(e.path.length > 0 ? { title: e.path.join('/') } : {}),
    });
  },
  toolResult: (state, e, out) => {
    const id = e.toolResult.toolUseId;
    if (!state.tools.has(id) && !state.answering) return;
    if (e.toolResult.status === 'success')
      out.push({
        type: 'tool-output-available',
        toolCallId: id,
        output: toolOutput(e.toolResult),
        dynamic: true,
      });
    else
      out.push({
        type: 'tool-output-error',
        toolCallId: id,
        errorText: toolError(e.toolResult),
        dynamic: true,
      });
  },
  messageAdded: (state, e, out) => {
    if (e.message.role !== 'assistant') return;
    closeSpeaker(state, keyOf(e.path), out);
    if (state.single && state.stepOpen) {
      out.push({ type: 'finish-step' });
      state.stepOpen = false;
    }
  },
  modelRetry: (state, e, out) => {
    if (!e.discardedPartialAnswer) return;
    const key = keyOf(e.path);
    if (state.single && state.stepOpen) {
      state.text.delete(key);
      state.reasoning.delete(key);
      out.push({ type: 'reset-step' });
    } else {
      closeSpeaker(state, key, out);
      out.push({
        type: 'data-skein-retry',
        id: `retry-${state.next++}`,
        data: { path: [...e.path], attempt: e.attempt },
      });
    }
  },
  interrupt: (state, e, out) => {
    for (const interrupt of e.interrupts) {
      const use = interrupt.toolUse;
      if (interrupt.name === 'approval' && use) {
        if (!state.tools.has(use.toolUseId))
          TABLE.toolStart(state, { type: 'toolStart', path: e.path, toolUse: use }, out);
        out.push({
          type: 'tool-approval-request',
          approvalId: interrupt.id,
          toolCallId: use.toolUseId,
        });
      } else {
        out.push({
          type: 'data-skein-interrupt',
          id: `interrupt-${interrupt.id}`,
          data: interrupt,
        });
      }
    }
  },
  textRetracted: (state, e, out) => retract(state, e.path, out, { guardrail: e.guardrail, action: e.action }),
  guardrailRetry: (_state, e, out) => {
    out.push({
      type: 'data-skein-guardrail-retry',
      data: {
        path: [...e.path],
        guardrail: e.guardrail,
        feedback: e.feedback,
        attempt: e.attempt,
      },
      transient: true,
    });
  },
  guardrailTripped: (state, e, out) => {
    closeSpeaker(state, keyOf(e.path), out);
    out.push({
      type: 'data-skein-guardrail',
      id: 'guardrail',
      data: { ...e.trip, speaker: [...e.path] },
    });
  },
  budgetWarning: (_state, e, out) => {
    out.push({
      type: 'data-skein-budget',
      data: { path: [...e.path], ...e.warning },
      transient: true,
    });
  },
  modelAttempt: (_state, e, out) => {
    const { type: _type, path, ...attempt } = e;
    out.push({
      type: 'data-skein-model-attempt',
      data: { path: [...path], ...attempt },
      transient: true,
    });
  },
  warning: (_state, e, out) => {
    out.push({
      type: 'data-skein-warning',
      data: { path: [...e.path], code: e.code, message: e.message },
      transient: true,
    });
  },
  nodeStart: (state, e, out) => {
    const path = [...e.path, e.nodeId];
    const key = keyOf(path);
    const run = (state.nodeRuns.get(key) ?? 0) + 1;
    state.nodeRuns.set(key, run);
    out.push({
      type: 'data-skein-node',
      id: `node-${key}-${run}`,
      data: { path, status: 'running' },
    });
  },
  nodeStop: (state, e, out) => {
    const path = [...e.path, e.nodeId];
    const key = keyOf(path);
    closeSpeaker(state, key, out);
    const run = state.nodeRuns.get(key) ?? 1;
    const data = {
      path,
      status: e.status,
      ...(e.error !== undefined ? { error: e.error } : {}),
    };
    out.push({ type: 'data-skein-node', id: `node-${key}-${run}`, data });
  },
  transition: (_state, e, out) => {
    out.push({
      type: 'data-skein-transition',
      id: `transition-${keyOf(e.path)}-${e.transition.seq}`,
      data: { path: [...e.path], ...e.transition },
    });
  },
  turnEnd: (state, e, out) => {
    closeAll(state, out);
    if (state.single && state.stepOpen) out.push({ type: 'finish-step' });
    state.stepOpen = false;
    const r = e.result;
    if (r.status === 'failed')
      out.push({
        type: 'error',
        errorText: r.failureReason ?? 'The turn failed.',
      });
    out.push({
      type: 'data-skein-result',
      id: 'result',
      data: {
        turn: r.turn,
        status: r.status,
        ...(r.failureReason !== undefined ? { failureReason: r.failureReason } : {}),
      },
    });
    out.push({ type: 'finish', finishReason: FINISH[r.status] ?? 'other' });
    state.ended = true;
  },
  resumed: (_state, e, out) => {
    out.push({
      type: 'data-skein-resumed',
      data: { turn: e.turn, attempt: e.attempt, detail: e.detail },
      transient: true,
    });
  },
  gap: () => undefined,
  serverStopping: (_state, e, out) => {
    out.push({
      type: 'data-skein-server',
      data: { stopping: true, detail: e.detail },
      transient: true,
    });
  },
};

/** The UI chunks for one server event (appended to `out`); `state` carries what the turn's earlier events left. */
export function mapUiEvent(state: UiState, event: ServerEvent, out: UiChunk[] = []): UiChunk[] {
  if (state.ended) return out;
  if (event.nested) mapNestedEvent(state.nested, event, out);
  else (TABLE[event.type] as Handler<typeof event.type>)(state, event as never, out);
  return out;
}
