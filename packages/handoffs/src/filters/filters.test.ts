import type { HandoffInputData, Message } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  composeFilters,
  handoffInputMessages,
  nestHandoffHistory,
  removeAllTools,
  resetConversationHistoryWrappers,
  setConversationHistoryWrappers,
} from '../index.js';

const user = (text: string): Message => ({ role: 'user', content: [{ text }] });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ text }] });
const image = { image: { format: 'png' as const, source: { bytes: new Uint8Array([1, 2]) } } };

const data: HandoffInputData = {
  inputHistory: [{ role: 'user', content: [{ text: 'I was charged twice' }, image] }],
  preHandoffItems: [
    { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'lookup', input: { id: 42 } } }] },
    {
      role: 'user',
      content: [{ toolResult: { toolUseId: 't1', status: 'success', content: [{ json: { amount: 10 } }] } }],
    },
  ],
  newItems: [
    {
      role: 'assistant',
      content: [
        { text: 'Transferring you.' },
        { toolUse: { toolUseId: 't2', name: 'transfer_to_billing', input: {} } },
      ],
    },
    {
      role: 'user',
      content: [{ toolResult: { toolUseId: 't2', status: 'success', content: [{ json: { assistant: 'Billing' } }] } }],
    },
  ],
};

function toolIds(messages: readonly Message[]): { uses: string[]; results: string[] } {
  const uses: string[] = [];
  const results: string[] = [];
  for (const m of messages)
    for (const b of m.content) {
      if ('toolUse' in b) uses.push(b.toolUse.toolUseId);
      if ('toolResult' in b) results.push(b.toolResult.toolUseId);
    }
  return { uses, results };
}

afterEach(() => resetConversationHistoryWrappers());

describe('removeAllTools', () => {
  it('drops tool uses, tool results and handoff calls, keeps text and media, drops emptied messages', () => {
    const out = removeAllTools(data);
    expect(out.inputHistory).toEqual(data.inputHistory);
    expect(out.preHandoffItems).toEqual([]);
    expect(out.newItems).toEqual([assistant('Transferring you.')]);
    expect(toolIds(handoffInputMessages(out))).toEqual({ uses: [], results: [] });
    expect(handoffInputMessages(out).map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('nestHandoffHistory', () => {
  it('collapses the transcript into one assistant message between the markers', async () => {
    const out = await nestHandoffHistory(data);
    expect(out.preHandoffItems).toEqual([]);
    expect(out.newItems).toEqual([]);
    expect(out.inputHistory).toHaveLength(1);
    const summary = out.inputHistory[0] as Message;
    expect(summary.role).toBe('assistant');
    const text = (summary.content[0] as { text: string }).text;
    expect(text.startsWith('<CONVERSATION HISTORY>\n')).toBe(true);
    expect(text.endsWith('\n</CONVERSATION HISTORY>')).toBe(true);
    expect(text).toContain('1. user: I was charged twice');
    expect(text).toContain('2. user: [image: png]');
    expect(text).toContain('assistant called lookup {"id":42}');
    expect(text).toContain('tool result (success): {"amount":10}');
    expect(text).toContain('assistant: Transferring you.');
  });

  it('a second handoff appends to the earlier summary instead of nesting it', async () => {
    const first = await nestHandoffHistory(data);
    const second = await nestHandoffHistory({
      inputHistory: first.inputHistory,
      preHandoffItems: [user('Transferred to Billing.\nPlease check.')],
      newItems: [assistant('Refund needed.')],
    });
    const text = ((second.inputHistory[0] as Message).content[0] as { text: string }).text;
    expect(text.match(/<CONVERSATION HISTORY>/g)).toHaveLength(1);
    expect(text).toContain('1. user: I was charged twice');
    expect(text).toMatch(/\d+\. user: Transferred to Billing\.\n {3}Please check\./);
    expect(text).toMatch(/\d+\. assistant: Refund needed\.\n<\/CONVERSATION HISTORY>$/);
    const third = await nestHandoffHistory({ inputHistory: second.inputHistory, preHandoffItems: [], newItems: [] });
    expect(third.inputHistory).toEqual(second.inputHistory);
  });

  it('takes a history mapper and custom wrappers', async () => {
    const mapped = await nestHandoffHistory(data, { historyMapper: (t) => [user(`${t.length} messages before`)] });
    expect(mapped.inputHistory).toEqual([user('5 messages before')]);
    setConversationHistoryWrappers({ start: '<PRIOR>', end: '</PRIOR>' });
    const out = await nestHandoffHistory(data);
    const text = ((out.inputHistory[0] as Message).content[0] as { text: string }).text;
    expect(text.startsWith('<PRIOR>')).toBe(true);
    resetConversationHistoryWrappers();
    const again = await nestHandoffHistory(data);
    expect(
      ((again.inputHistory[0] as Message).content[0] as { text: string }).text.startsWith('<CONVERSATION HISTORY>'),
    ).toBe(true);
    expect(() => setConversationHistoryWrappers({ start: '' })).toThrow(TypeError);
  });
});

describe('composeFilters', () => {
  it('applies filters in order, sync and async', async () => {
    const addNote = async (d: HandoffInputData): Promise<HandoffInputData> => ({
      ...d,
      newItems: [...d.newItems, assistant('note')],
    });
    const out = await composeFilters(removeAllTools, addNote)(data);
    expect(out.newItems).toEqual([assistant('Transferring you.'), assistant('note')]);
    expect(handoffInputMessages(out).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(await composeFilters()(data)).toBe(data);
    expect(() => composeFilters('x' as never)).toThrow(TypeError);
  });
});
