import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, messageText, tool } from '@skein/core';
import { OpenAIModel } from '@skein/model-openai';
import { OpenAITestServer, responseEvents } from '@skein/model-openai/testing';

// An agent's tool loop through the real openai SDK against the loopback server's Responses API (api: 'responses').

let server: OpenAITestServer;
beforeEach(async () => {
  server = await OpenAITestServer.start();
});
afterEach(async () => {
  await server.close();
});

const ran: string[] = [];
const lookup = tool({
  name: 'lookup_order',
  description: 'Looks an order up.',
  inputSchema: z.object({ orderId: z.string() }),
  callback: ({ orderId }) => (ran.push(orderId), { orderId, totalEur: orderId === '42' ? 80 : 15 }),
});
const agent = (): Agent =>
  new Agent({
    model: new OpenAIModel({ modelId: 'gpt-5-mini', baseURL: server.url, api: 'responses' }),
    systemPrompt: 'You answer questions about orders.',
    tools: [lookup],
    retryStrategy: { initialDelayMs: 1, transientInitialDelayMs: 1, maxDelayMs: 5 },
  });

type Item = Record<string, unknown>;
const inputOf = (n: number): Item[] => server.requests[n]?.body['input'] as Item[];

describe('Agent + OpenAIModel (Responses API) against the loopback server', () => {
  it('runs a tool loop: two function calls in one turn, results sent back as function_call_output, the final answer', async () => {
    ran.length = 0;
    server.enqueue(
      {
        chunks: responseEvents({
          reasoning: ['Two orders: look both up.'],
          text: ['Let me check both.'],
          toolCalls: [
            { callId: 'call_42', name: 'lookup_order', args: ['{"order', 'Id":"42"}'] },
            { callId: 'call_7', name: 'lookup_order', args: ['{"orderId"', ':"7"}'] },
          ],
          usage: { input_tokens: 50, output_tokens: 20, cached_tokens: 30 },
        }),
        splitBytes: 7,
      },
      {
        chunks: responseEvents({
          text: ['Order 42 is 80 EUR, ', 'order 7 is 15 EUR.'],
          usage: { input_tokens: 90, output_tokens: 12 },
        }),
      },
    );
    const a = agent();
    const result = await a.invoke('How much were orders 42 and 7?');
    expect(String(result)).toBe('Order 42 is 80 EUR, order 7 is 15 EUR.');
    expect(ran.sort()).toEqual(['42', '7']);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
    expect(server.requests[1]?.body).toMatchObject({
      instructions: 'You answer questions about orders.',
      store: false,
      stream: true,
    });
    // The whole history goes back each time (stateless): the question, the answer's text and calls (no reasoning, no item ids), then the outputs.
    expect(inputOf(1)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'How much were orders 42 and 7?' }] },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Let me check both.', annotations: [] }],
      },
      { type: 'function_call', call_id: 'call_42', name: 'lookup_order', arguments: '{"orderId":"42"}' },
      { type: 'function_call', call_id: 'call_7', name: 'lookup_order', arguments: '{"orderId":"7"}' },
      { type: 'function_call_output', call_id: 'call_42', output: '{"orderId":"42","totalEur":80}' },
      { type: 'function_call_output', call_id: 'call_7', output: '{"orderId":"7","totalEur":15}' },
    ]);
    expect(result.metrics.usage).toMatchObject({
      inputTokens: 20 + 90,
      outputTokens: 32,
      totalTokens: 172,
      cacheReadInputTokens: 30,
    });
    expect(a.messages[1]?.content[0]).toEqual({
      reasoningContent: { reasoningText: { text: 'Two orders: look both up.' } },
    });
  });

  it('forces the structured-output tool through tool_choice { type: function, name }', async () => {
    server.enqueue({
      chunks: responseEvents({
        toolCalls: [{ callId: 'call_s', name: 'Order', args: ['{"orderId":"42","totalEur":80}'] }],
      }),
    });
    const a = agent();
    const order = await a.structuredOutput(
      z.object({ orderId: z.string(), totalEur: z.number() }).meta({ title: 'Order' }),
      'Order 42 as data.',
    );
    expect(order).toEqual({ orderId: '42', totalEur: 80 });
    expect(server.requests[0]?.body['tool_choice']).toEqual({ type: 'function', name: 'Order' });
  });

  it('recovers from a response.failed server_error and from a stream cut before response.completed, leaving nothing of them behind', async () => {
    server.enqueue(
      {
        chunks: responseEvents({
          text: ['FAILED PART'],
          failed: { code: 'server_error', message: 'The model failed to generate a response.' },
        }),
      },
      { chunks: responseEvents({ text: ['FRAGMENT ', 'of an answer'] }), cutAfter: 6 },
      { chunks: responseEvents({ text: ['Fine.'] }) },
    );
    const a = agent();
    expect(String(await a.invoke('q'))).toBe('Fine.');
    const history = a.messages.map(messageText).join('|');
    expect(history).not.toContain('FRAGMENT');
    expect(history).not.toContain('FAILED');
    expect(server.requests).toHaveLength(3);
  });

  it('stops with max_tokens when the response is incomplete (max_output_tokens)', async () => {
    server.enqueue({ chunks: responseEvents({ text: ['A long'], incomplete: 'max_output_tokens' }) });
    const result = await agent().invoke('Write a lot.');
    expect(result.stopReason).toBe('max_tokens');
    expect(String(result)).toBe('A long');
  });
});
