import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ModelThrottledError, ModelTransientError, messageText, tool, type AgentStreamEvent } from '@skein/core';
import { AnthropicModel } from '@skein/model-anthropic';
import {
  AnthropicTestServer,
  answerEvents,
  errorBody,
  errorEvent,
  type ScriptedReply,
} from '@skein/model-anthropic/testing';

// Transient faults of the wire, one at a time and in runs, through the real SDK: the agent's retry
// strategy absorbs them, and nothing of a failed attempt reaches the history or runs a tool.

let server: AnthropicTestServer;
beforeEach(async () => {
  server = await AnthropicTestServer.start();
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
    model: new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: server.url } }),
    tools: [lookup],
    retryStrategy: { maxAttempts, initialDelayMs: 1, transientInitialDelayMs: 1, maxDelayMs: 5, jitter: false },
  });

const toolCall = (): ScriptedReply => ({
  events: answerEvents({
    blocks: [{ text: ['Looking.'] }, { toolUse: { id: 'toolu_1', name: 'lookup', inputChunks: ['{"id":', '"42"}'] } }],
  }),
});
const final = (): ScriptedReply => ({ events: answerEvents({ blocks: [{ text: ['Order 42 ', 'is 80 EUR.'] }] }) });
const partial = answerEvents({
  blocks: [
    { text: ['FRAGMENT of a cut ', 'answer'] },
    { toolUse: { id: 'toolu_cut', name: 'lookup', inputChunks: ['{"id":', '"cut"}'] } },
  ],
});

const FAULTS: [string, ScriptedReply][] = [
  ['500', { status: 500, body: errorBody('api_error', 'Internal server error') }],
  ['503', { status: 503, body: errorBody('api_error', 'Service unavailable') }],
  ['529 overloaded', { status: 529, body: errorBody('overloaded_error', 'Overloaded') }],
  [
    '429 with retry-after-ms',
    { status: 429, body: errorBody('rate_limit_error', 'slow down'), headers: { 'retry-after-ms': '20' } },
  ],
  ['overloaded event mid-stream', { events: [...partial.slice(0, 5), errorEvent('overloaded_error', 'Overloaded')] }],
  [
    'api_error event mid-stream',
    { events: [...partial.slice(0, 5), errorEvent('api_error', 'Internal server error')] },
  ],
  ['a stream cut after partial text and tool input', { events: partial, cutAfter: partial.length - 3 }],
];

describe('Agent + AnthropicModel through transient faults', () => {
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

  it('waits out a 429 retry-after longer than maxDelayMs', async () => {
    server.enqueue(
      { status: 429, body: errorBody('rate_limit_error', 'slow down'), headers: { 'retry-after-ms': '135' } },
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
      ...Array.from({ length: 3 }, () => ({ status: 500, body: errorBody('api_error', 'Internal server error') })),
    );
    await expect(agent(3).invoke('q')).rejects.toSatisfy((e) => ModelTransientError.is(e));
    server.enqueue(
      ...Array.from({ length: 3 }, () => ({ status: 529, body: errorBody('overloaded_error', 'Overloaded') })),
    );
    await expect(agent(3).invoke('q')).rejects.toSatisfy((e) => ModelThrottledError.is(e));
  });

  it('does not wait for a retry-after beyond 60 s: fails with ModelThrottledError carrying it', async () => {
    server.enqueue({
      status: 429,
      body: errorBody('rate_limit_error', 'slow down'),
      headers: { 'retry-after': '120' },
    });
    await expect(agent().invoke('q')).rejects.toSatisfy((e) => ModelThrottledError.is(e) && e.retryAfterMs === 120_000);
  });
});
