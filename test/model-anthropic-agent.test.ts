import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ModelThrottledError, tool, type AgentStreamEvent } from '@skein/core';
import { AnthropicModel } from '@skein/model-anthropic';
import { AnthropicTestServer, answerEvents, errorBody } from '@skein/model-anthropic/testing';

let server: AnthropicTestServer;
let model: AnthropicModel;

beforeEach(async () => {
  server = await AnthropicTestServer.start();
  model = new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: server.url } });
});
afterEach(async () => {
  await server.close();
});

const calls: { city: string; unit: string }[] = [];
const weather = tool({
  name: 'weather',
  description: 'Current temperature in a city',
  inputSchema: z.object({ city: z.string(), unit: z.enum(['C', 'F']) }),
  callback: (input) => {
    calls.push(input);
    return { city: input.city, temperature: 21, unit: input.unit };
  },
});

type Body = {
  messages: { role: string; content: { type: string; [k: string]: unknown }[] }[];
  tools?: { name: string }[];
};

describe('Agent + AnthropicModel against the loopback server', () => {
  it('runs a full tool loop: thinking and tool call, tool result sent back, final answer', async () => {
    calls.length = 0;
    server.enqueue(
      {
        events: answerEvents({
          blocks: [
            { thinking: ['The user wants ', 'the weather.'], signature: 'sig-xyz' },
            { text: ['Checking', ' Paris.'] },
            { toolUse: { id: 'toolu_01', name: 'weather', inputChunks: ['{"ci', 'ty":"Par', 'is","un', 'it":"C"}'] } },
          ],
          usage: { input_tokens: 100, output_tokens: 40, cache_creation_input_tokens: 80 },
        }),
        chunkDelayMs: 1,
      },
      {
        events: answerEvents({
          blocks: [{ text: ['It is ', '21°C in Paris.'] }],
          usage: { input_tokens: 160, output_tokens: 12, cache_read_input_tokens: 80 },
        }),
      },
    );
    const agent = new Agent({ model, tools: [weather], systemPrompt: 'Be brief.' });
    const texts: string[] = [];
    const stream = agent.stream('Weather in Paris?');
    let next = await stream.next();
    while (!next.done) {
      const event: AgentStreamEvent = next.value;
      if (event.type === 'textDelta') texts.push(event.data);
      next = await stream.next();
    }
    const result = next.value;

    expect(String(result)).toBe('It is 21°C in Paris.');
    expect(result.stopReason).toBe('end_turn');
    expect(texts).toEqual(['Checking', ' Paris.', 'It is ', '21°C in Paris.']);
    expect(calls).toEqual([{ city: 'Paris', unit: 'C' }]);
    expect(result.metrics.usage).toMatchObject({
      inputTokens: 260,
      outputTokens: 52,
      cacheReadInputTokens: 80,
      cacheWriteInputTokens: 80,
    });

    expect(server.requests).toHaveLength(2);
    const first = server.body(0) as Body;
    expect(first.tools?.map((t) => t.name)).toEqual(['weather']);
    expect(server.body(0)['system']).toBe('Be brief.');
    const second = server.body(1) as Body;
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'The user wants the weather.', signature: 'sig-xyz' },
      { type: 'text', text: 'Checking Paris.' },
      { type: 'tool_use', id: 'toolu_01', name: 'weather', input: { city: 'Paris', unit: 'C' } },
    ]);
    expect(second.messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01',
        content: [{ type: 'text', text: '{"city":"Paris","temperature":21,"unit":"C"}' }],
      },
    ]);
  });

  it('retries a throttled call through the core retry strategy, honouring retry-after', async () => {
    server.enqueue(
      { status: 429, body: errorBody('rate_limit_error', 'Too many requests'), headers: { 'retry-after-ms': '2' } },
      { status: 529, body: errorBody('overloaded_error', 'Overloaded') },
      { events: answerEvents({ blocks: [{ text: ['Finally.'] }] }) },
    );
    const retries: { attempt: number; delayMs: number; error: unknown }[] = [];
    const agent = new Agent({
      model,
      retryStrategy: { initialDelayMs: 1, maxDelayMs: 5 },
      callbackHandler: (event) => {
        if (event.type === 'modelRetry') retries.push(event);
      },
    });
    const result = await agent.invoke('Hello');
    expect(String(result)).toBe('Finally.');
    expect(server.requests).toHaveLength(3);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(retries[0]?.delayMs).toBe(2);
    expect(retries.every((r) => ModelThrottledError.is(r.error))).toBe(true);
    expect(result.metrics.modelCallCount).toBe(3);
  });

  it('gives up after the retry strategy runs out, with the ModelThrottledError', async () => {
    const overloaded = { status: 529, body: errorBody('overloaded_error', 'Overloaded') };
    server.enqueue(overloaded, overloaded);
    const agent = new Agent({ model, retryStrategy: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 5 } });
    await expect(agent.invoke('Hello')).rejects.toSatisfy((e) => ModelThrottledError.is(e));
    expect(server.requests).toHaveLength(2);
  });

  it('forces the structured-output tool with tool_choice and returns the typed value', async () => {
    server.enqueue({
      events: answerEvents({
        blocks: [{ toolUse: { id: 'toolu_so', name: 'Person', inputChunks: ['{"name":"Ada",', '"age":36}'] } }],
      }),
    });
    const agent = new Agent({ model });
    const Person = z.object({ name: z.string(), age: z.number() }).meta({ title: 'Person' });
    const person = await agent.structuredOutput(Person, 'Ada Lovelace, 36');
    expect(person).toEqual({ name: 'Ada', age: 36 });
    expect(server.body(0)['tool_choice']).toEqual({ type: 'tool', name: 'Person' });
  });

  it('recovers from "prompt is too long" by letting the conversation manager trim the history', async () => {
    server.enqueue(
      { status: 400, body: errorBody('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum') },
      { events: answerEvents({ blocks: [{ text: ['Short now.'] }] }) },
    );
    const history = [
      { role: 'user' as const, content: [{ text: 'old question' }] },
      { role: 'assistant' as const, content: [{ text: 'old answer' }] },
    ];
    const agent = new Agent({ model, messages: history });
    const result = await agent.invoke('New question');
    expect(String(result)).toBe('Short now.');
    const sizes = server.requests.map((r) => (r.body as Body).messages.length);
    expect(sizes).toEqual([3, 1]);
  });
});
