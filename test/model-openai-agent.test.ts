import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, messageText, tool } from '@skein/core';
import { OpenAIModel } from '@skein/model-openai';
import { chatChunks, errorBody, OpenAITestServer } from '@skein/model-openai/testing';

// An agent's tool loop through the real openai SDK against the loopback Chat Completions server.

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
  callback: ({ orderId }) => (ran.push(orderId), `order ${orderId}: 80 EUR`),
});
const agent = (): Agent =>
  new Agent({
    model: new OpenAIModel({ modelId: 'qwen3', baseURL: server.url }),
    tools: [lookup],
    retryStrategy: { initialDelayMs: 1, transientInitialDelayMs: 1, maxDelayMs: 5 },
  });

describe('Agent + OpenAIModel against the loopback server', () => {
  it('runs a tool loop: the tool call, its result sent back as role tool, the final answer', async () => {
    ran.length = 0;
    server.enqueue(
      {
        chunks: chatChunks({
          text: ['Let me check.'],
          toolCalls: [{ id: 'call_1', name: 'lookup_order', args: ['{"order', 'Id":"42"}'] }],
        }),
      },
      { chunks: chatChunks({ text: ['Order 42 ', 'is 80 EUR.'] }) },
    );
    const a = agent();
    const result = await a.invoke('How much was order 42?');
    expect(String(result)).toBe('Order 42 is 80 EUR.');
    expect(ran).toEqual(['42']);
    const second = server.requests[1]?.body['messages'] as { role: string; tool_call_id?: string; content: unknown }[];
    expect(second.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'order 42: 80 EUR' });
    expect(result.metrics.usage.totalTokens).toBe(30);
  });

  it('turns malformed tool-call JSON from a small model into an error result the model can read', async () => {
    ran.length = 0;
    server.enqueue(
      { chunks: chatChunks({ toolCalls: [{ id: 'call_bad', name: 'lookup_order', args: ['{"orderId": 42,,'] }] }) },
      {
        chunks: chatChunks({
          text: ['Sorry, let me retry.'],
          toolCalls: [{ id: 'call_ok', name: 'lookup_order', args: ['{"orderId":"42"}'] }],
        }),
      },
      { chunks: chatChunks({ text: ['80 EUR.'] }) },
    );
    const a = agent();
    expect(String(await a.invoke('Order 42?'))).toBe('80 EUR.');
    expect(ran).toEqual(['42']);
    const sent = server.requests[1]?.body['messages'] as { role: string; content: string }[];
    expect(sent.at(-1)?.role).toBe('tool');
    expect(sent.at(-1)?.content).toMatch(/^Error: .*not valid JSON/);
  });

  it('recovers from a 500 and from a stream cut after partial text, leaving nothing of them behind', async () => {
    const partial = chatChunks({ text: ['FRAGMENT ', 'of an answer'] });
    server.enqueue(
      { status: 500, body: errorBody('The server had an error', 'server_error') },
      { chunks: partial, cutAfter: 2 },
      { chunks: chatChunks({ text: ['Fine.'] }) },
    );
    const a = agent();
    expect(String(await a.invoke('q'))).toBe('Fine.');
    expect(a.messages.map(messageText).join('|')).not.toContain('FRAGMENT');
    expect(server.requests).toHaveLength(3);
  });
});
