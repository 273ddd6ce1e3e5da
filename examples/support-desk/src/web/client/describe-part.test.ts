import { describe, expect, it } from 'vitest';
import { answeredAfter, describePart, waitsForPerson, working } from './describe-part.js';
import type { DeskMessage, DeskPart } from './desk-message.js';

const refund = (state: string, toolCallId = 'tooluse_2', title = 'refund'): DeskPart =>
  ({
    type: 'dynamic-tool',
    toolName: 'issue_refund',
    toolCallId,
    title,
    state,
    input: { orderId: '108', amountEur: 60, reason: 'broken' },
    ...(state.startsWith('approval') ? { approval: { id: `${toolCallId}#approval` } } : {}),
    ...(state === 'output-available' ? { output: {} } : {}),
  }) as DeskPart;

const user = (id: string, text: string): DeskMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id: string, parts: DeskPart[]): DeskMessage => ({ id, role: 'assistant', parts });
const lines = (messages: DeskMessage[], index: number) =>
  (messages[index]?.parts ?? []).flatMap((p) => describePart(p, answeredAfter(messages, index)) ?? []);

describe('the customer page in words', () => {
  it('an approval waits until the turn that answers it (the next assistant message) runs the call', () => {
    const asked = [user('u1', 'Please refund order 108, 60 EUR'), assistant('turn-1', [refund('approval-requested')])];
    expect(lines(asked, 1)).toEqual([
      {
        kind: 'waiting',
        text: 'Waiting for a person to approve (refund): a refund of 60 EUR for order 108',
        status: 'waiting',
      },
    ]);
    expect(waitsForPerson(asked)).toBe(true);
    const answered = [...asked, assistant('m2', [refund('output-available')])];
    expect(lines(answered, 1)).toEqual([
      { kind: 'tool', text: 'A person answered (refund): a refund of 60 EUR for order 108', status: 'done' },
    ]);
    expect(lines(answered, 2)).toEqual([
      { kind: 'tool', text: 'Done (refund): a refund of 60 EUR for order 108', status: 'done' },
    ]);
    expect(waitsForPerson(answered)).toBe(false);
  });

  it('tool call ids repeat across turns: a later turn with the same id answers nothing', () => {
    const messages = [
      user('u1', 'Please refund order 108, 60 EUR'),
      assistant('turn-1', [refund('approval-requested')]),
      user('u2', 'hello?'),
      assistant('turn-2', [refund('output-available')]),
    ];
    expect(lines(messages, 1)[0]?.kind).toBe('waiting');
  });

  it('nodes at work go to the status line, a failed one to the log; handoff tools are the transition line', () => {
    const running: DeskPart = { type: 'data-skein-node', id: 'n1', data: { path: ['billing'], status: 'running' } };
    const failed: DeskPart = {
      type: 'data-skein-node',
      id: 'n2',
      data: { path: ['refund'], status: 'failed', error: 'boom' },
    };
    const transfer = { ...refund('output-available'), toolName: 'transfer_to_refund' } as DeskPart;
    const handoff: DeskPart = {
      type: 'data-skein-transition',
      id: 't1',
      data: { path: [], seq: 1, from: 'triage', to: 'refund', kind: 'handoff' },
    };
    const messages = [user('u1', 'x'), assistant('turn-1', [running, failed, transfer, handoff])];
    expect(working(messages)).toEqual(['billing']);
    expect(lines(messages, 1)).toEqual([
      { kind: 'node', text: 'refund failed: boom', status: 'failed' },
      { kind: 'handoff', text: 'triage handed over to refund' },
    ]);
  });

  it('a turn resumed after a restart says so', () => {
    const turn: DeskPart = {
      type: 'data-skein-turn',
      id: 'turn',
      data: { turn: 1, attempt: 1, resumed: true, kind: 'graphs', name: 'desk' },
    };
    expect(describePart(turn, new Set())).toEqual({
      kind: 'notice',
      text: 'The desk restarted and went on from where it was.',
      status: 'done',
    });
    expect(describePart({ ...turn, data: { ...turn.data, resumed: false } } as DeskPart, new Set())).toBeUndefined();
  });
});
