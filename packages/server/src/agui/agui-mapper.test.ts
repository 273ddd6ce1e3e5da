import { describe, expect, it } from 'vitest';
import { EventType, type AGUIEvent } from '@ag-ui/core';
import type { ServerEvent } from '../stream/server-events.js';
import type { TurnResult } from '../runs/turn-result.js';
import { mapAguiEvent } from './agui-mapper.js';
import { newAguiState } from './agui-speakers.js';

const run = { threadId: 't', runId: 'r' };
const start = (kind = 'agents', answering = false): ServerEvent => ({
  type: 'turnStart',
  turn: 1,
  attempt: 0,
  resumed: false,
  answering,
  kind,
  name: 'desk',
});
const end = (status: TurnResult['status'], extra: Partial<TurnResult> = {}): ServerEvent => ({
  type: 'turnEnd',
  result: { conversationId: 'c', turn: 1, status, text: '', interrupts: [], ...extra },
});

function map(events: ServerEvent[], kind?: string, answering?: boolean): AGUIEvent[] {
  const state = newAguiState(run);
  const out: AGUIEvent[] = [];
  for (const event of [start(kind, answering), ...events]) mapAguiEvent(state, event, out);
  return out;
}

describe('mapAguiEvent, case by case', () => {
  it.each([
    ['failed', { type: EventType.RUN_ERROR, code: 'failed', message: 'boom' }],
    ['budgetExceeded', { type: EventType.RUN_ERROR, code: 'budget-exceeded' }],
    [
      'stopped',
      { type: EventType.RUN_ERROR, code: 'stopped', message: expect.stringMatching(/same threadId and runId/) },
    ],
    ['cancelled', { type: EventType.RUN_FINISHED, outcome: { type: 'cancelled' } }],
    [
      'blocked',
      {
        type: EventType.RUN_FINISHED,
        outcome: { type: 'success' },
        result: expect.objectContaining({ status: 'blocked' }),
      },
    ],
  ] as const)('a turn that ends %s', (status, last) => {
    const out = map([end(status, { failureReason: 'boom' })]);
    expect(out.at(-1)).toMatchObject(last);
  });

  it('parallel speakers each have their own message, closed before the run ends; steps too', () => {
    const out = map(
      [
        { type: 'nodeStart', path: [], nodeId: 'a' },
        { type: 'nodeStart', path: [], nodeId: 'b' },
        { type: 'textDelta', path: ['a'], data: 'A' },
        { type: 'textDelta', path: ['b'], data: 'B' },
        { type: 'textDelta', path: ['a'], data: 'A' },
        end('failed'),
      ],
      'graphs',
    );
    const starts = out.filter((e) => e.type === EventType.TEXT_MESSAGE_START);
    expect(starts.map((e) => ('name' in e ? e.name : ''))).toEqual(['a', 'b']);
    const ends = out.filter((e) => e.type === EventType.TEXT_MESSAGE_END || e.type === EventType.STEP_FINISHED);
    expect(ends).toHaveLength(4);
    expect(out.findIndex((e) => e.type === EventType.RUN_ERROR)).toBe(out.length - 1);
  });

  it('an approval whose tool call was not shown yet shows it, then names it in a custom event and the outcome', () => {
    const toolUse = { toolUseId: 'tu1', name: 'issue_refund', input: { amount: 80 } };
    const interrupt = { id: 'tu1#approval~x', name: 'approval', reason: null, toolUse, source: 'refund' };
    const out = map([
      { type: 'interrupt', path: [], interrupts: [interrupt] },
      end('interrupted', { interrupts: [interrupt] }),
    ]);
    expect(out.map((e) => e.type)).toEqual([
      EventType.RUN_STARTED,
      EventType.TOOL_CALL_START,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_END,
      EventType.CUSTOM,
      EventType.RUN_FINISHED,
    ]);
    expect(out[4]).toMatchObject({ name: 'skein.approval', value: { id: interrupt.id, toolCallId: 'tu1' } });
    expect(out[5]).toMatchObject({
      outcome: { type: 'interrupt', interrupts: [{ id: interrupt.id, reason: 'approval', toolCallId: 'tu1' }] },
    });
  });

  it('tool results of calls from the run before are sent only when the turn answers', () => {
    const result: ServerEvent = {
      type: 'toolResult',
      path: [],
      toolResult: { toolUseId: 'old', status: 'error', content: [{ text: 'refused' }] },
    };
    expect(map([result]).some((e) => e.type === EventType.TOOL_CALL_RESULT)).toBe(false);
    expect(map([result], 'agents', true).find((e) => e.type === EventType.TOOL_CALL_RESULT)).toMatchObject({
      toolCallId: 'old',
      content: 'refused',
      metadata: { skein: { status: 'error' } },
    });
  });

  it('a retraction closes the message and names it', () => {
    const out = map([
      { type: 'textDelta', path: [], data: 'secret' },
      { type: 'textRetracted', path: [], guardrail: 'pii', action: 'rewrite' },
    ]);
    expect(out.slice(-2)).toEqual([
      { type: EventType.TEXT_MESSAGE_END, messageId: 'r.0:m0' },
      expect.objectContaining({
        type: EventType.CUSTOM,
        name: 'skein.textRetracted',
        value: expect.objectContaining({ messageId: 'r.0:m0' }),
      }),
    ]);
  });
});
