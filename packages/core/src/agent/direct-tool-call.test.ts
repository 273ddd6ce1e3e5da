import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, BeforeToolCallEvent, ConcurrencyError, ToolNotFoundError, tool } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const calculator = tool({
  name: 'calculator',
  description: 'Multiplies',
  inputSchema: z.object({ expression: z.string() }),
  callback: ({ expression }) =>
    `Result: ${expression
      .split('*')
      .map(Number)
      .reduce((a, b) => a * b, 1)}`,
});

describe('direct tool calls', () => {
  it('records the call in the history exactly as the seeds show', async () => {
    const agent = new Agent({ model: new ScriptedModel([]), tools: [calculator] });
    const result = await agent.tool.calculator!({ expression: '123 * 456' });
    expect(result).toMatchObject({ status: 'success', content: [{ text: 'Result: 56088' }] });
    const id = result.toolUseId;
    expect(id).toMatch(/^tooluse_calculator_\d+$/);
    expect(agent.messages).toEqual([
      {
        role: 'user',
        content: [{ text: 'agent.tool.calculator direct tool call.\nInput parameters: {"expression":"123 * 456"}\n' }],
      },
      {
        role: 'assistant',
        content: [{ toolUse: { toolUseId: id, name: 'calculator', input: { expression: '123 * 456' } } }],
      },
      {
        role: 'user',
        content: [{ toolResult: { toolUseId: id, status: 'success', content: [{ text: 'Result: 56088' }] } }],
      },
      { role: 'assistant', content: [{ text: 'agent.tool.calculator was called.' }] },
    ]);
  });

  it('does not record with recordDirectToolCall: false (per call or per agent)', async () => {
    const agent = new Agent({ model: new ScriptedModel([]), tools: [calculator] });
    await agent.tool.calculator!({ expression: '765 * 987' }, { recordDirectToolCall: false });
    expect(agent.messages).toEqual([]);
    const quiet = new Agent({ model: new ScriptedModel([]), tools: [calculator], recordDirectToolCall: false });
    await quiet.tool.calculator!({ expression: '2 * 2' });
    expect(quiet.messages).toEqual([]);
  });

  it('validates input, runs hooks, and names unknown tools', async () => {
    const agent = new Agent({ model: new ScriptedModel([]), tools: [calculator] });
    const seen: string[] = [];
    agent.hooks.addCallback(BeforeToolCallEvent, (e) => void seen.push(e.toolUse.name));
    const bad = await agent.tool.calculator!({ expression: 5 });
    expect(bad.status).toBe('error');
    expect(seen).toEqual(['calculator']);
    await expect(agent.tool.missing!({})).rejects.toThrow(ToolNotFoundError);
    await expect(agent.tool.missing!({})).rejects.toThrow(/Available tools: calculator/);
    expect('calculator' in agent.tool).toBe(true);
    expect(Object.keys(agent.tool)).toEqual(['calculator']);
  });

  it('refuses to record while the agent is running', async () => {
    const agent = new Agent({ model: new ScriptedModel([{ text: 'slow', delayMs: 30 }]), tools: [calculator] });
    const running = agent.invoke('go');
    await expect(agent.tool.calculator!({ expression: '1 * 1' })).rejects.toThrow(ConcurrencyError);
    await expect(
      agent.tool.calculator!({ expression: '1 * 1' }, { recordDirectToolCall: false }),
    ).resolves.toMatchObject({ status: 'success' });
    await running;
    expect(agent.messages).toHaveLength(2);
  });
});

describe('direct tool calls and initialization', () => {
  it('initialize the agent first, so hooks of AgentInitializedEvent (session restore) run before the call', async () => {
    const { AgentInitializedEvent } = await import('../index.js');
    const agent = new Agent({ model: new ScriptedModel([]), tools: [calculator] });
    const order: string[] = [];
    agent.hooks.addCallback(AgentInitializedEvent, () => void order.push('initialized'));
    agent.hooks.addCallback(BeforeToolCallEvent, () => void order.push('tool'));
    await agent.tool.calculator!({ expression: '2 * 3' });
    await agent.tool.calculator!({ expression: '2 * 3' });
    expect(order).toEqual(['initialized', 'tool', 'tool']);
  });
});
