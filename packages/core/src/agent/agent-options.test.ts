import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ConfigurationError, tool } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

describe('agent options', () => {
  it('fails without a model, naming the model packages', () => {
    expect(() => new Agent({} as never)).toThrow(ConfigurationError);
    expect(() => new Agent({} as never)).toThrow(/@skein\/model-bedrock.*@skein\/model-anthropic/);
  });

  it('names unknown options, bad ids and bad executors', () => {
    const model = new ScriptedModel([]);
    expect(() => new Agent({ model, sytemPrompt: 'x' } as never)).toThrow(/Unknown Agent option\(s\): sytemPrompt/);
    expect(() => new Agent({ model, id: '../escape' })).toThrow(/Agent id/);
    expect(() => new Agent({ model, toolExecutor: 'parallel' as never })).toThrow(/toolExecutor/);
    expect(() => new Agent({ model, maxConcurrentTools: 0 })).toThrow(/maxConcurrentTools/);
    expect(() => new Agent({ model, messages: [{ role: 'system', content: [] } as never] })).toThrow(/role "system"/);
  });

  it('refuses duplicate and invalid tools', () => {
    const t = tool({ name: 'a', description: 'a', inputSchema: z.object({}), callback: () => 'a' });
    expect(() => new Agent({ model: new ScriptedModel([]), tools: [t, t] })).toThrow(/Two tools are named "a"/);
    expect(() => tool({ name: 'has space', description: 'x', inputSchema: z.object({}), callback: () => 1 })).toThrow(
      /Tool name "has space" is invalid/,
    );
    expect(() => tool({ name: 'x', description: 'x', inputSchema: {} as never, callback: () => 1 })).toThrow(
      /zod 4 schema/,
    );
  });

  it('defaults: id "default", name "agent", a sliding window of 40', () => {
    const agent = new Agent({ model: new ScriptedModel([]) });
    expect(agent.id).toBe('default');
    expect(agent.name).toBe('agent');
    expect(agent.conversationManager.constructor.name).toBe('SlidingWindowConversationManager');
  });

  it('sends JSON Schema generated from zod to the model', () => {
    const t = tool({
      name: 'weather',
      description: 'Weather',
      inputSchema: z.object({ city: z.string().describe('City name'), days: z.number().int().optional() }),
      callback: () => 'sunny',
    });
    expect(t.spec.inputSchema.json).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' } },
      required: ['city'],
    });
    expect(t.spec.inputSchema.json['$schema']).toBeUndefined();
  });
});
