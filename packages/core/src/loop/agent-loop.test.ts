import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, tool, type AgentStreamEvent, type ToolResult } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const calculator = tool({
  name: 'calculator',
  description: 'Evaluates a product like "25 * 48"',
  inputSchema: z.object({ expression: z.string() }),
  callback: ({ expression }) => {
    const [a, b] = expression.split('*').map((s) => Number(s.trim()));
    return `Result: ${(a ?? 0) * (b ?? 0)}`;
  },
});

function resultsOf(agent: Agent, index: number): ToolResult[] {
  const message = agent.messages[index];
  return (message?.content ?? []).flatMap((b) => ('toolResult' in b ? [b.toolResult] : []));
}

describe('agent loop', () => {
  it("runs model -> tool -> model and records the seeds' message shapes", async () => {
    const model = new ScriptedModel([
      { toolUses: [{ name: 'calculator', input: { expression: '25 * 48' }, toolUseId: 'tool_123' }] },
      'It is 1200.',
    ]);
    const agent = new Agent({ model, tools: [calculator], systemPrompt: 'You are a helpful assistant.' });
    const result = await agent.invoke('25 * 48 を計算して。');
    expect(String(result)).toBe('It is 1200.');
    expect(result.stopReason).toBe('end_turn');
    expect(agent.messages[1]).toEqual({
      role: 'assistant',
      content: [{ toolUse: { toolUseId: 'tool_123', name: 'calculator', input: { expression: '25 * 48' } } }],
    });
    expect(agent.messages[2]).toEqual({
      role: 'user',
      content: [{ toolResult: { toolUseId: 'tool_123', status: 'success', content: [{ text: 'Result: 1200' }] } }],
    });
    expect(model.requests[0]?.systemPrompt).toBe('You are a helpful assistant.');
    expect(model.requests[0]?.toolNames).toEqual(['calculator']);
    expect(model.requests[1]?.messages).toHaveLength(3);
  });

  it('accepts content blocks and whole messages as prompts, and continues without one', async () => {
    const model = new ScriptedModel(['a', 'b', 'c']);
    const agent = new Agent({ model });
    await agent.invoke([{ text: 'look' }, { image: { format: 'png', source: { bytes: new Uint8Array([1, 2]) } } }]);
    expect(agent.messages[0]?.content).toHaveLength(2);
    await agent.invoke([{ role: 'user', content: [{ text: 'x' }] }]);
    await agent.invoke();
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'assistant']);
  });

  it('runs tools concurrently but appends results in the order the model asked', async () => {
    // The three calls all run before any ends; they end in the order b, c, a (released by hand, not by
    // timers, so a loaded machine cannot reorder them); the results keep the order the model asked.
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    let running = 0;
    let maxRunning = 0;
    const releaseInOrder = async (): Promise<void> => {
      for (const id of ['b', 'c', 'a']) {
        gates.get(id)?.();
        await new Promise((r) => setImmediate(r));
      }
    };
    const gated = tool({
      name: 'wait',
      description: 'waits',
      inputSchema: z.object({ id: z.string() }),
      callback: async ({ id }) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        const released = new Promise<void>((r) => gates.set(id, r));
        if (gates.size === 3) void releaseInOrder();
        await released;
        running--;
        order.push(id);
        return id;
      },
    });
    const uses = ['a', 'b', 'c'].map((id, i) => ({ name: 'wait', input: { id }, toolUseId: `t${i}` }));
    const agent = new Agent({ model: new ScriptedModel([{ toolUses: uses }, 'done']), tools: [gated] });
    await agent.invoke('go');
    expect(order).toEqual(['b', 'c', 'a']);
    expect(maxRunning).toBe(3);
    expect(resultsOf(agent, 2).map((r) => r.toolUseId)).toEqual(['t0', 't1', 't2']);
  });

  it('bounds concurrency and runs one at a time with the sequential executor', async () => {
    for (const [options, expected] of [
      [{ maxConcurrentTools: 2 }, 2],
      [{ toolExecutor: 'sequential' as const }, 1],
    ] as const) {
      let running = 0;
      let maxRunning = 0;
      const t = tool({
        name: 't',
        description: 't',
        inputSchema: z.object({}),
        callback: async () => {
          maxRunning = Math.max(maxRunning, ++running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
          return 'ok';
        },
      });
      const uses = Array.from({ length: 5 }, () => ({ name: 't', input: {} }));
      const agent = new Agent({ model: new ScriptedModel([{ toolUses: uses }, 'done']), tools: [t], ...options });
      await agent.invoke('go');
      expect(maxRunning).toBe(expected);
    }
  });

  it('turns every tool failure into an error result the model reads', async () => {
    const boom = tool({
      name: 'boom',
      description: 'fails',
      inputSchema: z.object({}),
      callback: () => {
        throw new Error('disk full');
      },
    });
    const model = new ScriptedModel([
      {
        toolUses: [
          { name: 'calculator', input: { expression: 42 }, toolUseId: 'bad-input' },
          { name: 'nope', input: {}, toolUseId: 'unknown' },
          { name: 'boom', input: {}, toolUseId: 'throws' },
          { name: 'calculator', rawInput: '{"expression": "1 *', toolUseId: 'bad-json' },
        ],
      },
      'sorry',
    ]);
    const agent = new Agent({ model, tools: [calculator, boom] });
    const result = await agent.invoke('go');
    expect(result.stopReason).toBe('end_turn');
    const [badInput, unknown, throws, badJson] = resultsOf(agent, 2);
    expect(badInput?.status).toBe('error');
    expect(JSON.stringify(badInput?.content)).toContain('expression');
    expect(JSON.stringify(unknown?.content)).toContain('Unknown tool: nope. Available tools: calculator, boom');
    expect(throws?.content).toEqual([{ text: 'Error: disk full' }]);
    expect(JSON.stringify(badJson?.content)).toContain('not valid JSON');
    expect(agent.messages[1]?.content[3]).toEqual({
      toolUse: { toolUseId: 'bad-json', name: 'calculator', input: {} },
    });
    expect(result.metrics.toolMetrics['calculator']).toMatchObject({ callCount: 2, successCount: 0, errorCount: 2 });
    expect(result.metrics.toolMetrics['boom']).toMatchObject({ callCount: 1, errorCount: 1 });
  });

  it('converts tool return values: strings to text, other values to json', async () => {
    const j = tool({
      name: 'j',
      description: 'json',
      inputSchema: z.object({}),
      callback: () => ({ a: [1, 2], when: new Date(0) }),
    });
    const agent = new Agent({ model: new ScriptedModel([{ toolUses: [{ name: 'j', input: {} }] }, 'ok']), tools: [j] });
    await agent.invoke('go');
    expect(resultsOf(agent, 2)[0]?.content).toEqual([{ json: { a: [1, 2], when: '1970-01-01T00:00:00.000Z' } }]);
  });

  it('gives tools the agent, the tool use, the invocation state and a signal', async () => {
    let seen: unknown;
    const t = tool({
      name: 'ctx',
      description: 'ctx',
      inputSchema: z.object({}),
      callback: (_input, ctx) => {
        seen = {
          agent: ctx.agent.name,
          id: ctx.toolUse.toolUseId,
          user: ctx.invocationState['user'],
          aborted: ctx.signal.aborted,
        };
        ctx.agent.state.set('touched', true);
        return 'ok';
      },
    });
    const agent = new Agent({
      name: 'helper',
      model: new ScriptedModel([{ toolUses: [{ name: 'ctx', toolUseId: 'u1' }] }, 'ok']),
      tools: [t],
    });
    await agent.invoke('go', { invocationState: { user: 'kun' } });
    expect(seen).toEqual({ agent: 'helper', id: 'u1', user: 'kun', aborted: false });
    expect(agent.state.get('touched')).toBe(true);
  });

  it('streams typed events and returns the result', async () => {
    const agent = new Agent({
      model: new ScriptedModel([{ toolUses: [{ name: 'calculator', input: { expression: '2 * 3' } }] }, 'Six it is.'], {
        chunkSize: 4,
      }),
      tools: [calculator],
    });
    const types: string[] = [];
    const text: string[] = [];
    const gen = agent.stream('2*3?');
    let step = await gen.next();
    while (!step.done) {
      const e: AgentStreamEvent = step.value;
      if (e.type !== 'modelStreamEvent') types.push(e.type);
      if (e.type === 'textDelta') text.push(e.data);
      step = await gen.next();
    }
    expect(String(step.value)).toBe('Six it is.');
    expect(text).toEqual(['Six ', 'it i', 's.']);
    expect(types).toEqual([
      'messageAdded',
      'messageAdded',
      'toolStart',
      'toolResult',
      'messageAdded',
      'textDelta',
      'textDelta',
      'textDelta',
      'messageAdded',
    ]);
  });

  it('keeps reasoning with its signature in the history', async () => {
    const agent = new Agent({
      model: new ScriptedModel([{ reasoning: { text: 'think', signature: 'sig' }, text: 'answer' }]),
    });
    await agent.invoke('q');
    expect(agent.messages[1]?.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'think', signature: 'sig' } } },
      { text: 'answer' },
    ]);
  });

  it('reports metrics: cycles, tokens, tools, latency', async () => {
    const model = new ScriptedModel([
      {
        toolUses: [{ name: 'calculator', input: { expression: '1 * 1' } }],
        usage: { inputTokens: 100, outputTokens: 20, cacheReadInputTokens: 80 },
      },
      { text: 'one', usage: { inputTokens: 130, outputTokens: 5, cacheWriteInputTokens: 7 } },
    ]);
    const result = await new Agent({ model, tools: [calculator] }).invoke('1*1');
    expect(result.metrics.cycleCount).toBe(2);
    expect(result.metrics.usage).toEqual({
      inputTokens: 230,
      outputTokens: 25,
      totalTokens: 255,
      cacheReadInputTokens: 80,
      cacheWriteInputTokens: 7,
    });
    expect(result.metrics.toolMetrics['calculator']).toMatchObject({ callCount: 1, successCount: 1, errorCount: 0 });
    expect(result.metrics.modelLatencyMs).toBe(2);
    expect(result.metrics.durationMs).toBeGreaterThan(0);
  });

  it('surfaces a cut model stream as an error instead of a short answer', async () => {
    const agent = new Agent({
      model: new ScriptedModel([{ text: 'partial answer', cutAfterEvents: 2 }]),
      retryStrategy: null,
    });
    await expect(agent.invoke('q')).rejects.toThrow(/ended before messageStop/);
    expect(agent.messages).toHaveLength(1);
  });
});
