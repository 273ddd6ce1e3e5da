import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, tool } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

describe('smoke', () => {
  it('runs a tool loop', async () => {
    const calc = tool({ name: 'calculator', description: 'calc', inputSchema: z.object({ expression: z.string() }), callback: ({ expression }) => `Result: ${expression.length}` });
    const model = new ScriptedModel([{ toolUses: [{ name: 'calculator', input: { expression: '25 * 48' } }] }, 'The answer is 1200.']);
    const agent = new Agent({ model, tools: [calc] });
    const result = await agent.invoke('What is 25 * 48?');
    expect(String(result)).toBe('The answer is 1200.');
    expect(agent.messages).toHaveLength(4);
  });
});
