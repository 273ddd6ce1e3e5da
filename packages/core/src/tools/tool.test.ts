import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ConfigurationError, tool, toJsonSchema, type AgentTool } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const schema = z.object({ city: z.string().describe('City name'), days: z.number().int().optional() });
const weather = (description: string): AgentTool =>
  tool({ name: 'weather', description, inputSchema: schema, callback: ({ city }) => `sunny in ${city}` });

describe('tool()', () => {
  it('computes the JSON Schema once per zod schema and shares it between tools built from it', () => {
    const a = weather('first');
    const b = weather('second');
    expect(a.spec.inputSchema.json).toBe(b.spec.inputSchema.json);
    expect(a.spec.inputSchema.json).toEqual(toJsonSchema(schema));
    expect(a.spec).toEqual({ name: 'weather', description: 'first', inputSchema: { json: toJsonSchema(schema) } });
    expect(b.spec.description).toBe('second');
    expect(a.spec).toBe(a.spec);
  });

  it('shares the spec of tools built alike, and gives tools with per-request descriptions their own', () => {
    expect(weather('same').spec).toBe(weather('same').spec);
    const specs = Array.from({ length: 40 }, (_, i) => weather(`for user ${i}`).spec);
    specs.forEach((spec, i) => expect(spec.description).toBe(`for user ${i}`));
    expect(new Set(specs.map((s) => s.inputSchema.json)).size).toBe(1);
  });

  it('is a plain object: a spread copy with a wrapped invoke still works in an agent', async () => {
    const base = weather('Forecast');
    const calls: string[] = [];
    const wrapped: AgentTool = {
      ...base,
      invoke: (input, context) => (calls.push(context.toolUse.name), base.invoke(input, context)),
    };
    const model = new ScriptedModel([{ toolUses: [{ name: 'weather', input: { city: 'Bergen' } }] }, 'done']);
    const agent = new Agent({ model, tools: [wrapped] });
    await agent.invoke('weather?');
    expect(calls).toEqual(['weather']);
    expect(agent.messages[2]?.content[0]).toMatchObject({
      toolResult: { status: 'success', content: [{ text: 'sunny in Bergen' }] },
    });
    const detached = base.invoke;
    await expect(detached({ city: 'Oslo' }, {} as Parameters<AgentTool['invoke']>[1])).rejects.toThrow(
      /called without its tool/,
    );
    const copy = { ...base };
    const result = await new Agent({ model: new ScriptedModel([]), tools: [copy] }).tool['weather']!(
      { city: 'Oslo' },
      { recordDirectToolCall: false },
    );
    expect(result.content).toEqual([{ text: 'sunny in Oslo' }]);
  });

  it('toJsonSchema still returns a fresh object on every call (callers may change it)', () => {
    const first = toJsonSchema(schema);
    first['title'] = 'changed';
    expect(toJsonSchema(schema)['title']).toBeUndefined();
    expect(weather('x').spec.inputSchema.json['title']).toBeUndefined();
  });

  it('has needsApproval only when given', () => {
    expect('needsApproval' in weather('x')).toBe(false);
    const asked = tool({
      name: 'refund',
      description: 'refunds',
      inputSchema: schema,
      callback: () => 'ok',
      needsApproval: true,
    });
    expect(asked.needsApproval).toBe(true);
  });

  it('sends the spec to the model and runs through the agent loop', async () => {
    const model = new ScriptedModel([{ toolUses: [{ name: 'weather', input: { city: 'Oslo' } }] }, 'done']);
    const agent = new Agent({ model, tools: [weather('Forecast')] });
    await agent.invoke('weather?');
    expect(model.requests[0]?.toolNames).toEqual(['weather']);
    const result = agent.messages[2]?.content[0];
    expect(result).toMatchObject({ toolResult: { status: 'success', content: [{ text: 'sunny in Oslo' }] } });
  });
});

describe('an agent with many tools', () => {
  const many = Array.from({ length: 12 }, (_, i) =>
    tool({
      name: `t${i}`,
      description: `tool ${i}`,
      inputSchema: z.object({ n: z.number() }),
      callback: ({ n }) => String(n + i),
    }),
  );

  it('keeps their order, finds each by name, and rejects a duplicate name', async () => {
    const agent = new Agent({ model: new ScriptedModel([]), tools: many });
    expect(agent.tools.map((t) => t.name)).toEqual(many.map((t) => t.name));
    expect(Object.keys(agent.tool)).toEqual(many.map((t) => t.name));
    const result = await agent.tool['t11']!({ n: 1 }, { recordDirectToolCall: false });
    expect(result.content).toEqual([{ text: '12' }]);
    expect(() => new Agent({ model: new ScriptedModel([]), tools: [...many, many[10] as AgentTool] })).toThrow(
      ConfigurationError,
    );
    expect(
      () => new Agent({ model: new ScriptedModel([]), tools: [many[0] as AgentTool, many[0] as AgentTool] }),
    ).toThrow(/Two tools are named "t0"/);
  });
});
