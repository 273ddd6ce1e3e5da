/**
 * Agents used as tools, in AG-UI: each invocation of a nested agent is a subagent
 * (`SUBAGENT_STARTED` ... `SUBAGENT_FINISHED`, or `SUBAGENT_ERROR`) tied to the tool call that ran it
 * (`parentToolCallId`) and to the subagent that called it (`parentSubagentRunId`), and every event it
 * makes carries its `subagentRunId`: a client groups its text, tool calls and approvals under that
 * call, never into the answer. Its tool call ids are scoped by its subagent id (each agent numbers its
 * own calls, AG-UI's are one namespace per run). Pure, over the run's state; ids are counted, so every
 * client that re-joins a run computes the same ones.
 */
import { EventType, type AGUIEvent } from '@ag-ui/core';
import type { ToolResult } from '@skein/core';
import type { ServerEvent, SpeakerPath } from '../stream/server-events.js';
import { toolResultContent } from './agui-interrupts.js';

/** What the mapping remembers of the subagents of one run. */
export interface SubagentState {
  /** Open subagents: their id by the path key of the agent that runs. */
  open: Map<string, string>;
  /** Tool calls by id: the path key of the agent that runs if the tool is an agent used as a tool. */
  calls: Map<string, string>;
  /** The latest tool call id by that path key (the call a nested agent's first event belongs to). */
  callOf: Map<string, string>;
  /** The subagent that raised each interrupt, by interrupt id. */
  raisedBy: Map<string, string>;
  next: number;
}

/** A fresh subagent state. */
export function newSubagentState(): SubagentState {
  return { open: new Map(), calls: new Map(), callOf: new Map(), raisedBy: new Map(), next: 0 };
}

const keyOf = (path: SpeakerPath): string => path.join('/');

/** Notes a tool call made at `path`: an agent of the tool's name that reports later is its subagent. */
export function noteToolCall(sub: SubagentState, path: SpeakerPath, toolUseId: string, name: string): void {
  const key = keyOf([...path, name]);
  sub.calls.set(toolUseId, key);
  sub.callOf.set(key, toolUseId);
}

/** The subagent that an event of a nested agent at `path` belongs to, started (into `out`) on its first event. */
export function subagentOf(sub: SubagentState, prefix: string, path: SpeakerPath, out: AGUIEvent[]): string {
  const key = keyOf(path);
  const open = sub.open.get(key);
  if (open !== undefined) return open;
  const subagentRunId = `${prefix}:s${sub.next++}`;
  const parent = sub.open.get(keyOf(path.slice(0, -1)));
  const call = sub.callOf.get(key);
  sub.open.set(key, subagentRunId);
  out.push({
    type: EventType.SUBAGENT_STARTED,
    subagentRunId,
    name: path.at(-1) ?? '',
    ...(parent !== undefined ? { parentSubagentRunId: parent } : {}),
    ...(call !== undefined ? { parentToolCallId: call } : {}),
  });
  return subagentRunId;
}

/** Notes the interrupts a subagent raised (`SUBAGENT_FINISHED`'s `suspended` outcome lists them). */
export function noteRaised(sub: SubagentState, subagentRunId: string, ids: readonly string[]): void {
  for (const id of ids) sub.raisedBy.set(id, subagentRunId);
}

/** The subagent that raised an interrupt (`undefined`: the run's own agent or a node did). */
export function raiserOf(sub: SubagentState, interruptId: string): string | undefined {
  return sub.raisedBy.get(interruptId);
}

/** A tool call's result arrived: the subagent it ran (and any it started) ends, `SUBAGENT_ERROR` if the call failed. */
export function endCall(sub: SubagentState, result: ToolResult, out: AGUIEvent[]): void {
  const key = sub.calls.get(result.toolUseId);
  if (key === undefined) return;
  sub.calls.delete(result.toolUseId);
  if (sub.callOf.get(key) === result.toolUseId) sub.callOf.delete(key);
  if (!sub.open.has(key)) return;
  endUnder(sub, key, out, 'success');
  const subagentRunId = sub.open.get(key) as string;
  sub.open.delete(key);
  if (result.status === 'error')
    out.push({
      type: EventType.SUBAGENT_ERROR,
      subagentRunId,
      message: toolResultContent(result) || 'The agent used as a tool failed.',
      code: 'tool-error',
    });
  else out.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId, outcome: { type: 'success' } });
}

/** The run ends: every open subagent ends with it, the deepest first (`suspended` when the run waits for answers). */
export function endAll(sub: SubagentState, status: string, out: AGUIEvent[]): void {
  endUnder(sub, '', out, status === 'interrupted' ? 'suspended' : status === 'failed' ? 'error' : 'success');
}

function endUnder(sub: SubagentState, key: string, out: AGUIEvent[], how: 'success' | 'suspended' | 'error'): void {
  const under = [...sub.open.keys()]
    .filter((k) => key === '' || k.startsWith(`${key}/`))
    .sort((a, b) => b.split('/').length - a.split('/').length);
  for (const k of under) {
    const subagentRunId = sub.open.get(k) as string;
    sub.open.delete(k);
    if (how === 'error')
      out.push({ type: EventType.SUBAGENT_ERROR, subagentRunId, message: 'The run failed while this agent worked.' });
    else if (how === 'suspended')
      out.push({
        type: EventType.SUBAGENT_FINISHED,
        subagentRunId,
        outcome: { type: 'suspended', interruptIds: raisedIds(sub, subagentRunId) },
      });
    else out.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId, outcome: { type: 'success' } });
  }
}

function raisedIds(sub: SubagentState, subagentRunId: string): string[] {
  return [...sub.raisedBy].filter(([, by]) => by === subagentRunId).map(([id]) => id);
}

/** A nested agent's event with its tool call ids scoped by its subagent (`<subagentRunId>/<toolUseId>`). */
export function scopedIds(event: ServerEvent, subagentRunId: string): ServerEvent {
  const scope = (id: string): string => `${subagentRunId}/${id}`;
  switch (event.type) {
    case 'toolStart':
      return { ...event, toolUse: { ...event.toolUse, toolUseId: scope(event.toolUse.toolUseId) } };
    case 'toolResult':
      return { ...event, toolResult: { ...event.toolResult, toolUseId: scope(event.toolResult.toolUseId) } };
    case 'interrupt':
      return {
        ...event,
        interrupts: event.interrupts.map((interrupt) =>
          interrupt.toolUse
            ? { ...interrupt, toolUse: { ...interrupt.toolUse, toolUseId: scope(interrupt.toolUse.toolUseId) } }
            : interrupt,
        ),
      };
    default:
      return event;
  }
}
