import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, StructuredOutputError } from '../index.js';
import { ScriptedModel } from '../testing/index.js';

const PersonInfo = z
  .object({ name: z.string(), age: z.number().int(), occupation: z.string() })
  .meta({ title: 'PersonInfo' });

describe('structured output', () => {
  it('forces the schema tool and returns the typed value', async () => {
    const model = new ScriptedModel([
      {
        toolUses: [{ name: 'PersonInfo', input: { name: '山田太郎', age: 30, occupation: 'ソフトウェアエンジニア' } }],
      },
    ]);
    const agent = new Agent({ model });
    const person = await agent.structuredOutput(PersonInfo, '山田太郎さんは30歳のソフトウェアエンジニアです。');
    expect(person).toEqual({ name: '山田太郎', age: 30, occupation: 'ソフトウェアエンジニア' });
    expect(model.requests[0]?.toolChoice).toEqual({ tool: { name: 'PersonInfo' } });
    expect(model.requests[0]?.toolNames).toEqual(['PersonInfo']);
    expect(agent.messages.at(-1)?.content[0]).toMatchObject({ toolResult: { status: 'success' } });
  });

  it('uses the conversation so far and leaves the output tool out of later calls', async () => {
    const model = new ScriptedModel([
      'Paris is the capital of France.',
      { toolUses: [{ name: 'StructuredOutput', input: { city: 'Paris' } }] },
      'bye',
    ]);
    const agent = new Agent({ model });
    await agent.invoke('Tell me about Paris');
    const city = await agent.structuredOutput(z.object({ city: z.string() }), 'Extract it');
    expect(city.city).toBe('Paris');
    expect(model.requests[1]?.messages).toHaveLength(3);
    await agent.invoke('thanks');
    expect(model.requests[2]?.toolNames).toEqual([]);
  });

  it('asks again once after invalid output, then succeeds', async () => {
    const model = new ScriptedModel([
      { toolUses: [{ name: 'PersonInfo', input: { name: 'Taro', occupation: 'engineer' } }] },
      { toolUses: [{ name: 'PersonInfo', input: { name: 'Taro', age: 28, occupation: 'engineer' } }] },
    ]);
    const person = await new Agent({ model }).structuredOutput(PersonInfo, 'Taro, 28, engineer');
    expect(person.age).toBe(28);
    const retryMessage = model.requests[1]?.messages.at(-1);
    expect(JSON.stringify(retryMessage)).toContain('age');
  });

  it('throws StructuredOutputError with the issues after the second invalid output', async () => {
    const wrong = { toolUses: [{ name: 'PersonInfo', input: { name: 'Taro', age: 'old', occupation: 'engineer' } }] };
    const agent = new Agent({ model: new ScriptedModel([wrong, wrong]) });
    const error = await agent.structuredOutput(PersonInfo, 'Taro').catch((e: unknown) => e);
    expect(StructuredOutputError.is(error)).toBe(true);
    expect((error as StructuredOutputError).issues).toEqual([
      expect.objectContaining({ code: 'invalid_type', path: ['age'] }),
    ]);
    const last = agent.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content[0]).toMatchObject({ toolResult: { status: 'error' } });
  });

  it('re-asks once when the model answers in text, then gives up clearly', async () => {
    const agent = new Agent({ model: new ScriptedModel(['I need the age first.', 'Still no age.']) });
    await expect(agent.structuredOutput(PersonInfo, 'Taro is an engineer')).rejects.toThrow(
      /did not call the output tool/,
    );
  });
});
