/**
 * The server's events -> AG-UI events (`@ag-ui/core`): a pure, table-driven mapping (one function per
 * event type) over an explicit state, so every client that re-joins a run computes the same events
 * from the same log. The run is `RUN_STARTED` ... `RUN_FINISHED` (outcome `success`, `interrupt` with
 * the interrupts a `resume` answers, or `cancelled`) or `RUN_ERROR`; text and reasoning are messages
 * per speaker (graph nodes in parallel each have their own, named by their path); tools are
 * `TOOL_CALL_START/ARGS/END` and `TOOL_CALL_RESULT`; nodes and swarm members are steps; a graph's or
 * swarm's run is the shared state (`STATE_SNAPSHOT`, then `STATE_DELTA`); an agent used as a tool is a
 * subagent (its events carry its `subagentRunId`); approvals and everything AG-UI has no event for are
 * `CUSTOM` events named `skein.<what>`.
 */
import { EventType, type AGUIEvent } from '@ag-ui/core';
import type { ServerEvent, SpeakerPath } from '../stream/server-events.js';
import { aguiInterrupt, interruptEventValue, toolResultContent } from './agui-interrupts.js';
import { newRunView, nodeStarted, nodeStopped, runEnded, transitioned } from './agui-run-view.js';
import {
  closeAll,
  closeSpeaker,
  custom,
  delta,
  keyOf,
  openReasoning,
  openText,
  retract,
  toolCall,
  type AguiState,
} from './agui-speakers.js';
import { endAll, endCall, noteRaised, raiserOf, scopedIds, subagentOf } from './agui-subagents.js';

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
    endCall(state.sub, e.toolResult, out);
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
    endAll(state.sub, r.status, out);
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
      const interrupts = r.interrupts.map((interrupt) => {
        const subagentRunId = raiserOf(state.sub, interrupt.id);
        return { ...aguiInterrupt(interrupt), ...(subagentRunId !== undefined ? { subagentRunId } : {}) };
      });
      const outcome = { type: 'interrupt' as const, interrupts };
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
  if (event.nested && 'path' in event) return mapNested(state, event, out);
  (TABLE[event.type] as Handler<typeof event.type>)(state, event as never, out);
  return out;
}

/** An event of an agent used as a tool: mapped as any other, each AG-UI event it makes attributed to its subagent. */
function mapNested(state: AguiState, event: ServerEvent & { path: SpeakerPath }, out: AGUIEvent[]): AGUIEvent[] {
  const subagentRunId = subagentOf(state.sub, state.prefix, event.path, out);
  const from = out.length;
  const scoped = scopedIds(event, subagentRunId);
  (TABLE[scoped.type] as Handler<typeof scoped.type>)(state, scoped as never, out);
  for (let i = from; i < out.length; i++) {
    const made = out[i] as AGUIEvent;
    if (!SUBAGENT_EVENTS.has(made.type)) out[i] = { ...made, subagentRunId } as AGUIEvent;
  }
  if (event.type === 'interrupt')
    noteRaised(
      state.sub,
      subagentRunId,
      event.interrupts.map((interrupt) => interrupt.id),
    );
  return out;
}

/** Events that name a subagent themselves (their `subagentRunId` is the subagent's, not an attribution). */
const SUBAGENT_EVENTS: ReadonlySet<EventType> = new Set([
  EventType.SUBAGENT_STARTED,
  EventType.SUBAGENT_FINISHED,
  EventType.SUBAGENT_ERROR,
]);
