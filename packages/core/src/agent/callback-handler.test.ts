import { describe, expect, it } from 'vitest';
import { Agent, type CallbackEvent } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

describe('callback handler and request state', () => {
  it("runs the seeds' counter example: the handler counts chunks in the request state", async () => {
    const printed: string[] = [];
    const handler = (event: CallbackEvent): void => {
      if (event.type !== 'textDelta') return;
      printed.push(event.data);
      const state = event.requestState;
      state['counter'] = ((state['counter'] as number | undefined) ?? 0) + 1;
      printed.push(`コールバックハンドラのイベント数: ${String(state['counter'])}`);
    };
    const chunks = [
      'こんにち',
      'は!お',
      '元気です',
      'か?何かお手',
      '伝いできること',
      'があれば',
      '、お気軽にお声',
      'かけください。',
    ];
    const agent = new Agent({ model: new ScriptedModel([{ text: chunks }]), callbackHandler: handler });
    const result = await agent.invoke('こんにちは!');
    expect(result.state).toEqual({ counter: 8 });
    expect(printed.slice(0, 4)).toEqual([
      'こんにち',
      'コールバックハンドラのイベント数: 1',
      'は!お',
      'コールバックハンドラのイベント数: 2',
    ]);
    expect(String(result)).toBe(chunks.join(''));
  });

  it('gets every event type, each with the same request state object', async () => {
    const states = new Set<object>();
    const types = new Set<string>();
    const agent = new Agent({
      model: new ScriptedModel(['hi']),
      callbackHandler: (e) => {
        states.add(e.requestState);
        types.add(e.type);
      },
    });
    await agent.invoke('x');
    expect(states.size).toBe(1);
    expect([...types].sort()).toEqual(['messageAdded', 'modelStreamEvent', 'textDelta']);
  });
});
