import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, tool, type AgentResult, type AgentStreamEvent, type Message } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

// `invoke` with nobody watching skips yielding per-cycle events; everything else must come out the same.

const add = tool({
  name: 'add',
  description: 'adds one',
  inputSchema: z.object({ n: z.number() }),
  callback: ({ n }) => String(n + 1),
});

function model(): ScriptedModel {
  return new ScriptedModel([
    {
      text: 'thinking',
      toolUses: [
        { name: 'add', input: { n: 1 }, toolUseId: 'a' },
        { name: 'nope', input: {}, toolUseId: 'b' },
      ],
    },
    { toolUses: [{ name: 'add', rawInput: '{"n":', toolUseId: 'c' }] },
    { reasoning: { text: 'hm', signature: 's' }, toolUses: [{ name: 'add', input: { n: 'x' }, toolUseId: 'd' }] },
    'done',
  ]);
}

function comparable(agent: Agent, result: AgentResult): { messages: Message[]; stopReason: string; metrics: object } {
  const { cycleCount, modelCallCount, modelLatencyMs, usage, toolMetrics, interruptCount } = result.metrics;
  const tools = Object.fromEntries(Object.entries(toolMetrics).map(([name, m]) => [name, { ...m, totalTimeMs: 0 }]));
  return {
    messages: agent.messages,
    stopReason: result.stopReason,
    metrics: { cycleCount, modelCallCount, modelLatencyMs, usage, tools, interruptCount },
  };
}

describe('an unobserved invocation', () => {
  it('ends with the same history, result and metrics as an observed one, which sees every event', async () => {
    const quiet = new Agent({ model: model(), tools: [add] });
    const quietResult = await quiet.invoke('go');

    const heard: AgentStreamEvent[] = [];
    const listened = new Agent({ model: model(), tools: [add] }).on('messageAdded', () => undefined);
    const handled = new Agent({ model: model(), tools: [add], callbackHandler: (e) => heard.push(e) });
    const listenedResult = await listened.invoke('go');
    const handledResult = await handled.invoke('go');

    const streamed = new Agent({ model: model(), tools: [add] });
    const events: AgentStreamEvent[] = [];
    const gen = streamed.stream('go');
    let step = await gen.next();
    for (; !step.done; step = await gen.next()) events.push(step.value);

    const expected = comparable(quiet, quietResult);
    expect(comparable(listened, listenedResult)).toEqual(expected);
    expect(comparable(handled, handledResult)).toEqual(expected);
    expect(comparable(streamed, step.value)).toEqual(expected);
    expect(heard.map((e) => e.type)).toEqual(events.map((e) => e.type));
    expect(events.filter((e) => e.type === 'messageAdded')).toHaveLength(quiet.messages.length);
    expect(events.filter((e) => e.type === 'toolResult')).toHaveLength(4);
    expect(
      events
        .filter((e) => e.type === 'textDelta')
        .map((e) => (e.type === 'textDelta' ? e.data : ''))
        .join(''),
    ).toBe('thinkingdone');
  });
});
