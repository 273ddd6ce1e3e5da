import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AfterInvocationEvent, Agent, tool } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// stream() hands each event to its reader and waits for the reader's next request, as the generator
// it replaced did: the run never gets ahead of the reader, and a reader that stops ends the run cleanly.

function counted(): { agent: Agent; model: ScriptedModel; calls: () => number } {
  let calls = 0;
  const add = tool({
    name: 'add',
    description: 'adds one',
    inputSchema: z.object({ n: z.number() }),
    callback: ({ n }) => (calls++, String(n + 1)),
  });
  const model = new ScriptedModel([{ toolUses: [{ name: 'add', input: { n: 1 } }] }, 'done']);
  return { agent: new Agent({ model, tools: [add] }), model, calls: () => calls };
}

describe('an agent stream', () => {
  it('does nothing until read, and nothing past the event its reader holds', async () => {
    const { agent, model, calls } = counted();
    const gen = agent.stream('go');
    await Promise.resolve();
    expect(agent.isRunning).toBe(false);
    const first = await gen.next();
    expect(first.value).toMatchObject({ type: 'messageAdded' });
    expect(model.callCount).toBe(0);
    let step = first;
    while (!step.done && step.value.type !== 'toolStart') step = await gen.next();
    expect(calls()).toBe(0); // the tool waits for the reader to take its toolStart
    step = await gen.next();
    expect(step.value).toMatchObject({ type: 'toolResult' });
    expect(calls()).toBe(1);
    await gen.return(undefined as never);
  });

  it('ends the invocation without an error when its reader stops early', async () => {
    const { agent, model } = counted();
    const after: AfterInvocationEvent[] = [];
    agent.hooks.addCallback(AfterInvocationEvent, (e) => void after.push(e));
    for await (const event of agent.stream('go')) if (event.type === 'toolStart') break;
    expect(after).toHaveLength(1);
    expect(after[0]?.error).toBeUndefined();
    expect(after[0]?.stopReason).toBeUndefined();
    expect(agent.isRunning).toBe(false);
    expect(model.callCount).toBe(1);
    await expect(agent.invoke('again')).resolves.toMatchObject({ stopReason: 'end_turn' });
  });
});
