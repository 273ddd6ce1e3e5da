import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Agent, tool, type AgentStreamEvent } from '../index.js';
import { listenerDispatchCount, ScriptedModel } from '../testing/index.js';

const lookup = tool({
  name: 'lookup',
  description: 'Looks up an order.',
  inputSchema: z.object({ id: z.string() }),
  callback: ({ id }) => `order ${id}`,
});
const script = (): ScriptedModel =>
  new ScriptedModel([{ text: 'Looking.', toolUses: [{ name: 'lookup', input: { id: '42' } }] }, 'Order 42 is fine.']);

describe('agent listeners', () => {
  it('receive every event of their type, from invoke and from stream alike', async () => {
    for (const mode of ['invoke', 'stream'] as const) {
      const agent = new Agent({ model: script(), tools: [lookup] });
      const seen: Record<string, number> = {};
      const types: AgentStreamEvent['type'][] = [
        'textDelta',
        'toolStart',
        'toolResult',
        'messageAdded',
        'modelStreamEvent',
      ];
      for (const type of types) agent.on(type, (e) => void (seen[e.type] = (seen[e.type] ?? 0) + 1));
      const streamed: Record<string, number> = {};
      if (mode === 'invoke') await agent.invoke('Order 42?');
      else for await (const e of agent.stream('Order 42?')) streamed[e.type] = (streamed[e.type] ?? 0) + 1;
      expect(seen['toolStart'], mode).toBe(1);
      expect(seen['toolResult'], mode).toBe(1);
      expect(seen['messageAdded'], mode).toBe(4);
      expect(seen['textDelta'], mode).toBeGreaterThan(1);
      if (mode === 'stream') expect(seen).toEqual(Object.fromEntries(types.map((t) => [t, streamed[t]])));
    }
  });

  it('are typed per event and can be removed; once fires once', async () => {
    const agent = new Agent({ model: new ScriptedModel(['one', 'two'], { chunkSize: 100 }) });
    const texts: string[] = [];
    const onText = (e: { data: string }): void => void texts.push(e.data);
    const firsts: string[] = [];
    agent.on('textDelta', onText).once('textDelta', (e) => void firsts.push(e.data));
    await agent.invoke('a');
    agent.off('textDelta', onText);
    await agent.invoke('b');
    expect(texts).toEqual(['one']);
    expect(firsts).toEqual(['one']);
  });

  it('that throw do not break the run; their errors go to error listeners', async () => {
    const agent = new Agent({ model: script(), tools: [lookup] });
    const errors: string[] = [];
    agent.on('toolStart', () => {
      throw new Error('listener bug');
    });
    agent.on('error', (e) => void errors.push(`${e.event.type}: ${(e.error as Error).message}`));
    const result = await agent.invoke('Order 42?');
    expect(String(result)).toBe('Order 42 is fine.');
    expect(errors).toEqual(['toolStart: listener bug']);
  });

  it('that throw without error listeners give one warning per listener', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const agent = new Agent({ model: new ScriptedModel([{ text: ['a', 'b', 'c'] }]) });
      agent.on('textDelta', () => {
        throw new Error('every time');
      });
      await agent.invoke('go');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(
        /A listener of "textDelta" threw \(the run goes on.*\): every time/,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('cost no event work when nobody listens', async () => {
    const before = listenerDispatchCount();
    const agent = new Agent({ model: script(), tools: [lookup] });
    await agent.invoke('Order 42?');
    expect(listenerDispatchCount()).toBe(before);
    // Listening to one type dispatches only that type's events.
    const other = new Agent({ model: script(), tools: [lookup] });
    other.on('toolStart', () => undefined);
    await other.invoke('Order 42?');
    expect(listenerDispatchCount()).toBe(before + 1);
  });
});
