import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, BeforeInvocationEvent, tool, type Message } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// `onMessageAdded` tells an orchestrator every message an invocation appends, exactly what the
// `messageAdded` events carry, whether or not anyone watches the events.

const add = tool({
  name: 'add',
  description: 'adds',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  callback: ({ a, b }) => String(a + b),
});

function agent(): Agent {
  return new Agent({
    tools: [add],
    retryStrategy: null,
    model: new ScriptedModel([{ text: 'adding', toolUses: [{ name: 'add', input: { a: 2, b: 3 } }] }, 'It is 5.']),
  });
}

describe('InvokeOptions.onMessageAdded', () => {
  it('sees what the messageAdded events carry, in order, with and without watchers', async () => {
    const streamed = agent();
    const events: Message[] = [];
    const fromStream: Message[] = [];
    const gen = streamed.stream([{ text: 'What is 2 + 3?' }, { text: 'Use the tool.' }], {
      onMessageAdded: (m) => void fromStream.push(m),
    });
    for (let step = await gen.next(); !step.done; step = await gen.next())
      if (step.value.type === 'messageAdded') events.push(step.value.message);
    expect(fromStream).toEqual(events);
    expect(events.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);

    const quiet = agent();
    const fromInvoke: Message[] = [];
    await quiet.invoke([{ text: 'What is 2 + 3?' }, { text: 'Use the tool.' }], {
      onMessageAdded: (m) => void fromInvoke.push(m),
    });
    expect(fromInvoke).toEqual(events);
    expect(quiet.messages).toEqual(fromInvoke);

    // A hook before the invocation makes its start asynchronous: the prompt is still told once.
    const hooked = agent();
    hooked.hooks.addCallback(BeforeInvocationEvent, async () => undefined);
    const fromHooked: Message[] = [];
    await hooked.invoke([{ text: 'What is 2 + 3?' }, { text: 'Use the tool.' }], {
      onMessageAdded: (m) => void fromHooked.push(m),
    });
    expect(fromHooked).toEqual(events);
  });

  it('tells nothing of the history the agent already had', async () => {
    const a = agent();
    a.messages = [
      { role: 'user', content: [{ text: 'Hi' }] },
      { role: 'assistant', content: [{ text: 'Hello.' }] },
    ];
    const told: Message[] = [];
    await a.invoke('What is 2 + 3?', { onMessageAdded: (m) => void told.push(m) });
    expect(told).toEqual(a.messages.slice(2));
  });
});
