import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ModelThrottledError, ModelTransientError, messageText, tool, type AgentStreamEvent } from '@skein/core';
import { OpenAIModel } from '@skein/model-openai';
import { chatChunks, errorBody, OpenAITestServer, type ScriptedReply } from '@skein/model-openai/testing';

// Transient faults of the wire, one at a time and in runs, through the real openai SDK: the agent's
// retry strategy absorbs them, and nothing of a failed attempt reaches the history or runs a tool.

let server: OpenAITestServer;
beforeEach(async () => {
  server = await OpenAITestServer.start();
});
afterEach(async () => {
  await server.close();
});

const ran: string[] = [];
const lookup = tool({
  name: 'lookup',
  description: 'Looks an order up.',
  inputSchema: z.object({ id: z.string() }),
  callback: ({ id }) => (ran.push(id), `order ${id}: 80 EUR`),
});
const agent = (maxAttempts = 4): Agent =>
  new Agent({
    model: new OpenAIModel({ modelId: 'qwen3', baseURL: server.url }),
    tools: [lookup],
    retryStrategy: { maxAttempts, initialDelayMs: 1, transientInitialDelayMs: 1, maxDelayMs: 5, jitter: false },
  });

const toolCall = (): ScriptedReply => ({
  chunks: chatChunks({
    text: ['Looking.'],
    toolCalls: [{ id: 'call_1', name: 'lookup', args: ['{"id":', '"42"}'] }],
    finish: 'tool_calls',
  }),
});
const final = (): ScriptedReply => ({ chunks: chatChunks({ text: ['Order 42 ', 'is 80 EUR.'], finish: 'stop' }) });
const partial = chatChunks({
  text: ['FRAGMENT of a cut ', 'answer'],
  toolCalls: [{ id: 'call_cut', name: 'lookup', args: ['{"id":', '"cut"}'] }],
  finish: 'tool_calls',
});

const FAULTS: [string, ScriptedReply][] = [
  ['500', { status: 500, body: errorBody('Internal server error', 'server_error') }],
  ['502', { status: 502, body: errorBody('Bad gateway', 'server_error') }],
  ['503', { status: 503, body: errorBody('Service unavailable', 'server_error') }],
  [
    '429 with retry-after-ms',
    {
      status: 429,
      body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
      headers: { 'retry-after-ms': '20' },
    },
  ],
  [
    '429 with retry-after',
    {
      status: 429,
      body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
      headers: { 'retry-after': '0' },
    },
  ],
  [
    'an error chunk mid-stream',
    {
      chunks: [
        ...partial.slice(0, 3),
        { error: { message: 'The server had an error', type: 'server_error', param: null, code: 'server_error' } },
      ],
    },
  ],
  ['a connection cut after partial text and tool arguments', { chunks: partial, cutAfter: partial.length - 2 }],
  ['a server that closes before finish_reason', { chunks: partial, closeAfter: partial.length - 2 }],
];

describe('Agent + OpenAIModel through transient faults', () => {
  it.each(FAULTS)('recovers from %s alone, with nothing of the failed attempt anywhere', async (_name, fault) => {
    ran.length = 0;
    server.enqueue(fault, toolCall(), final());
    const a = agent();
    const events: AgentStreamEvent[] = [];
    const gen = a.stream('How much was order 42?');
    let step = await gen.next();
    for (; !step.done; step = await gen.next()) events.push(step.value);
    expect(String(step.value)).toBe('Order 42 is 80 EUR.');
    expect(events.filter((e) => e.type === 'modelRetry')).toHaveLength(1);
    expect(ran).toEqual(['42']);
    const history = a.messages.map(messageText).join('\n');
    expect(history).not.toContain('FRAGMENT');
    expect(a.messages).toHaveLength(4);
    expect(step.value.metrics.modelCallCount).toBe(3);
  });

  it('waits out a 429 retry-after-ms longer than maxDelayMs', async () => {
    server.enqueue(
      {
        status: 429,
        body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
        headers: { 'retry-after-ms': '135' },
      },
      final(),
    );
    const a = agent();
    const retries: number[] = [];
    a.on('modelRetry', (e) => void retries.push(e.delayMs));
    await a.invoke('q');
    expect(retries).toEqual([135]);
  });

  it('fails with the last fault once the attempts run out: transient and throttled', async () => {
    server.enqueue(
      ...Array.from({ length: 3 }, () => ({ status: 500, body: errorBody('Internal server error', 'server_error') })),
    );
    await expect(agent(3).invoke('q')).rejects.toSatisfy((e) => ModelTransientError.is(e));
    server.enqueue(
      ...Array.from({ length: 3 }, () => ({
        status: 429,
        body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
      })),
    );
    await expect(agent(3).invoke('q')).rejects.toSatisfy((e) => ModelThrottledError.is(e));
  });

  it('does not wait for a retry-after beyond 60 s: fails with ModelThrottledError carrying it', async () => {
    server.enqueue({
      status: 429,
      body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
      headers: { 'retry-after': '120' },
    });
    await expect(agent().invoke('q')).rejects.toSatisfy((e) => ModelThrottledError.is(e) && e.retryAfterMs === 120_000);
  });
});
