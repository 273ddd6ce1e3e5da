/**
 * The server's events -> AG-UI events (`@ag-ui/core`): a pure, table-driven mapping (one function per
 * event type) over an explicit state, so every client that re-joins a run computes the same events
 * from the same log. The run is `RUN_STARTED` ... `RUN_FINISHED` (outcome `success`, `interrupt` with
 * the interrupts a `resume` answers, or `cancelled`) or `RUN_ERROR`; text and reasoning are messages
 * per speaker (graph nodes in parallel each have their own, named by their path); tools are
 * `TOOL_CALL_START/ARGS/END` and `TOOL_CALL_RESULT`; nodes and swarm members are steps; a graph's or
 * swarm's run is the shared state (`STATE_SNAPSHOT`, then `STATE_DELTA`); approvals and everything
 * AG-UI has no event for are `CUSTOM` events named `skein.<what>`.
 */
import { EventType, type AGUIEvent, type JsonPatchOperation } from '@ag-ui/core';
import type { ServerEvent, SpeakerPath } from '../stream/server-events.js';
import { aguiInterrupt, interruptEventValue, toolResultContent } from './agui-interrupts.js';
import { newRunView, nodeStarted, nodeStopped, runEnded, transitioned, type RunView } from './agui-run-view.js';

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
    next: 0,
    ended: false,
  };
}

const keyOf = (path: SpeakerPath): string => path.join('/');

function custom(name: string, value: unknown): AGUIEvent {
  return { type: EventType.CUSTOM, name: `skein.${name}`, value };
}

function delta(state: AguiState, ops: JsonPatchOperation[], out: AGUIEvent[]): void {
  if (state.view && ops.length > 0) out.push({ type: EventType.STATE_DELTA, delta: ops });
}

function closeSpeaker(state: AguiState, key: string, out: AGUIEvent[]): void {
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

function closeAll(state: AguiState, out: AGUIEvent[]): void {
  for (const key of new Set([...state.text.keys(), ...state.reasoning.keys()])) closeSpeaker(state, key, out);
  for (const step of state.steps) out.push({ type: EventType.STEP_FINISHED, stepName: step });
  state.steps.clear();
}

function openText(state: AguiState, path: SpeakerPath, out: AGUIEvent[]): string {
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

function openReasoning(state: AguiState, path: SpeakerPath, out: AGUIEvent[]): string {
  const key = keyOf(path);
  const open = state.reasoning.get(key);
  if (open !== undefined) return open;
  const messageId = `${state.prefix}:r${state.next++}`;
  state.reasoning.set(key, messageId);
  out.push({ type: EventType.REASONING_START, messageId });
  out.push({ type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning' });
  return messageId;
}

function toolCall(
  state: AguiState,
  path: SpeakerPath,
  use: { toolUseId: string; name: string; input: unknown },
  out: AGUIEvent[],
): void {
  const key = keyOf(path);
  closeSpeaker(state, key, out);
  state.tools.add(use.toolUseId);
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
function retract(state: AguiState, path: SpeakerPath, out: AGUIEvent[], data: Record<string, unknown>): void {
  const key = keyOf(path);
  const messageId = state.text.get(key);
  closeSpeaker(state, key, out);
  out.push(custom('textRetracted', { path: [...path], ...(messageId !== undefined ? { messageId } : {}), ...data }));
}

/** `custom` for an event AG-UI has no event for: its fields, `type` left out. */
function passThrough<T extends ServerEvent['type']>(name: string): Handler<T> {
  return (_state, e, out) => {
    const { type: _type, ...rest } = e as ServerEvent;
    out.push(custom(name, rest));
  };
}

const ERROR_CODES: Record<string, string> = {
  failed: 'failed',
  budgetExceeded: 'budget-exceeded',
  stopped: 'stopped',
};

type Handler<T extends ServerEvent['type']> = (
  state: AguiState,
  event: Extract<ServerEvent, { type: T }>,
  out: AGUIEvent[],
) => void;
type Table = { [T in ServerEvent['type']]: Handler<T> };

const TABLE: Table = {
  turnStart: (state, e, out) => {
    state.prefix = `${state.run.runId}.${e.attempt}`;
    state.name = e.name;
    state.answering = e.answering;
    const { threadId, runId } = state.run;
    const skein = { turn: e.turn, attempt: e.attempt, resumed: e.resumed, kind: e.kind, name: e.name };
    out.push({ type: EventType.RUN_STARTED, threadId, runId, metadata: { skein } });
    if (e.kind !== 'agents') {
      state.view = newRunView(e.kind, e.name, e.turn);
      out.push({ type: EventType.STATE_SNAPSHOT, snapshot: structuredClone(state.view) });
    }
  },
  textDelta: (state, e, out) => {
    if (e.data === '') return;
    out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: openText(state, e.path, out), delta: e.data });
  },
  reasoningDelta: (state, e, out) => {
    if (e.data === '') return;
    out.push({
      type: EventType.REASONING_MESSAGE_CONTENT,
      messageId: openReasoning(state, e.path, out),
      delta: e.data,
    });
  },
  toolStart: (state, e, out) => toolCall(state, e.path, e.toolUse, out),
  toolResult: (state, e, out) => {
    const id = e.toolResult.toolUseId;
    if (!state.tools.has(id) && !state.answering) return;
    out.push({
      type: EventType.TOOL_CALL_RESULT,
      messageId: `${state.prefix}:t:${id}`,
      toolCallId: id,
      content: toolResultContent(e.toolResult),
      role: 'tool',
      ...(e.toolResult.status === 'error' ? { metadata: { skein: { status: 'error' } } } : {}),
    });
  },
  messageAdded: (state, e, out) => {
    if (e.message.role === 'assistant') closeSpeaker(state, keyOf(e.path), out);
  },
  modelRetry: (state, e, out) => {
    if (e.discardedPartialAnswer) retract(state, e.path, out, { reason: 'modelRetry', attempt: e.attempt });
    else passThrough<'modelRetry'>('modelRetry')(state, e, out);
  },
  interrupt: (state, e, out) => {
    for (const interrupt of e.interrupts) {
      const use = interrupt.toolUse;
      if (interrupt.name === 'approval' && use && !state.tools.has(use.toolUseId)) toolCall(state, e.path, use, out);
      out.push(
        custom(interrupt.name === 'approval' ? 'approval' : 'interrupt', interruptEventValue(interrupt, e.path)),
      );
    }
  },
  textRetracted: (state, e, out) => retract(state, e.path, out, { guardrail: e.guardrail, action: e.action }),
  guardrailRetry: passThrough('guardrailRetry'),
  guardrailTripped: (state, e, out) => {
    closeSpeaker(state, keyOf(e.path), out);
    out.push(custom('guardrail', { ...e.trip, speaker: [...e.path] }));
  },
  budgetWarning: passThrough('budgetWarning'),
  modelAttempt: passThrough('modelAttempt'),
  warning: passThrough('warning'),
  nodeStart: (state, e, out) => {
    const step = keyOf([...e.path, e.nodeId]);
    if (!state.steps.has(step)) {
      state.steps.add(step);
      out.push({ type: EventType.STEP_STARTED, stepName: step });
    }
    if (state.view) delta(state, nodeStarted(state.view, step), out);
  },
  nodeStop: (state, e, out) => {
    const step = keyOf([...e.path, e.nodeId]);
    closeSpeaker(state, step, out);
    if (state.steps.delete(step)) out.push({ type: EventType.STEP_FINISHED, stepName: step });
    if (state.view) delta(state, nodeStopped(state.view, step, e.status), out);
  },
  transition: (state, e, out) => {
    const { from, to, kind } = e.transition;
    const prefix = e.path.length > 0 ? `${keyOf(e.path)}/` : '';
    if (state.view && from !== null && to !== null)
      delta(state, transitioned(state.view, prefix + from, prefix + to, kind), out);
    out.push(custom('transition', { path: [...e.path], ...e.transition }));
  },
  turnEnd: (state, e, out) => {
    closeAll(state, out);
    const r = e.result;
    if (state.view) delta(state, runEnded(state.view, r.status), out);
    const { threadId, runId } = state.run;
    const code = ERROR_CODES[r.status];
    if (code !== undefined) {
      const message =
        r.status === 'stopped'
          ? `${r.failureReason ?? 'The server stopped the run.'} Send the same RunAgentInput again (same threadId and runId) to resume it.`
          : (r.failureReason ?? `The run ended ${r.status}.`);
      out.push({ type: EventType.RUN_ERROR, message, code });
    } else if (r.status === 'interrupted') {
      const outcome = { type: 'interrupt' as const, interrupts: r.interrupts.map(aguiInterrupt) };
      out.push({ type: EventType.RUN_FINISHED, threadId, runId, outcome });
    } else {
      const outcome = r.status === 'cancelled' ? { type: 'cancelled' as const } : { type: 'success' as const };
      const { conversationId: _c, interrupts: _i, ...result } = r;
      out.push({ type: EventType.RUN_FINISHED, threadId, runId, outcome, result });
    }
    state.ended = true;
  },
  resumed: passThrough('resumed'),
  gap: passThrough('gap'),
  serverStopping: passThrough('serverStopping'),
};

/** The AG-UI events for one server event (appended to `out`); `state` carries what the run's earlier events left. */
export function mapAguiEvent(state: AguiState, event: ServerEvent, out: AGUIEvent[] = []): AGUIEvent[] {
  if (state.ended) return out;
  (TABLE[event.type] as Handler<typeof event.type>)(state, event as never, out);
  return out;
}
