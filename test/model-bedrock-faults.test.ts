import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ModelThrottledError, ModelTransientError, messageText, tool, type AgentStreamEvent } from '@skein/core';
import { BedrockModel } from '@skein/model-bedrock';
import {
  BedrockWireServer,
  textFrames,
  toolUseFrames,
  type WireFrame,
  type WireReply,
} from '@skein/model-bedrock/testing';

// Transient faults of the ConverseStream wire, through the real SDK: retried by the agent loop, with
// nothing of a failed attempt in the history or run as a tool.

let server: BedrockWireServer;
let model: BedrockModel;
beforeEach(async () => {
  server = await new BedrockWireServer().start();
  model = new BedrockModel({
    region: 'us-east-1',
    clientConfig: { endpoint: server.endpoint, credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' } },
  });
});
afterEach(async () => {
  model.client.destroy();
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
    model,
    tools: [lookup],
    retryStrategy: { maxAttempts, initialDelayMs: 1, transientInitialDelayMs: 1, maxDelayMs: 5, jitter: false },
  });

const start: WireFrame = { event: 'messageStart', body: { role: 'assistant' } };
const toolCall = (id: string, toolUseId: string): WireFrame[] => [
  start,
  ...toolUseFrames(0, toolUseId, 'lookup', ['{"id":', `"${id}"}`]),
  { event: 'messageStop', body: { stopReason: 'tool_use' } },
];
const partial: WireFrame[] = [
  start,
  { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { text: 'FRAGMENT of a cut answer' } } },
  ...toolUseFrames(1, 't-cut', 'lookup', ['{"id":', '"cut"}']),
];

const FAULTS: [string, WireReply][] = [
  [
    '503 ServiceUnavailableException',
    { status: 503, errorType: 'ServiceUnavailableException', message: 'Service is unavailable.' },
  ],
  ['500 InternalServerException', { status: 500, errorType: 'InternalServerException', message: 'Internal failure.' }],
  [
    '429 ThrottlingException',
    { status: 429, errorType: 'ThrottlingException', message: 'Too many requests.', headers: { 'retry-after': '0' } },
  ],
  [
    'internalServerException mid-stream',
    { frames: [...partial, { exception: 'internalServerException', body: { message: 'Something broke' } }] },
  ],
  [
    'modelStreamErrorException mid-stream',
    {
      frames: [
        ...partial,
        { exception: 'modelStreamErrorException', body: { message: 'The model failed', originalStatusCode: 500 } },
      ],
    },
  ],
  ['a stream closed before messageStop', { frames: partial, end: 'close' }],
  ['a reset HTTP/2 stream', { frames: partial, end: 'reset' }],
];

describe('Agent + BedrockModel through transient faults', () => {
  it.each(FAULTS)('recovers from %s alone, with nothing of the failed attempt anywhere', async (_name, fault) => {
    ran.length = 0;
    server.reply(fault, { frames: toolCall('42', 't-1') }, { frames: textFrames(['Order 42 ', 'is 80 EUR.']) });
    const a = agent();
    const events: AgentStreamEvent[] = [];
    const gen = a.stream('How much was order 42?');
    let step = await gen.next();
    for (; !step.done; step = await gen.next()) events.push(step.value);
    expect(String(step.value)).toBe('Order 42 is 80 EUR.');
    expect(events.filter((e) => e.type === 'modelRetry')).toHaveLength(1);
    expect(ran).toEqual(['42']);
    expect(a.messages.map(messageText).join('\n')).not.toContain('FRAGMENT');
    expect(a.messages).toHaveLength(4);
  });

  it('fails with the last fault once the attempts run out', async () => {
    server.reply(
      ...Array.from(
        { length: 3 },
        (): WireReply => ({ status: 500, errorType: 'InternalServerException', message: 'Internal failure.' }),
      ),
    );
    await expect(agent(3).invoke('q')).rejects.toSatisfy((e) => ModelTransientError.is(e));
    server.reply(
      ...Array.from(
        { length: 3 },
        (): WireReply => ({
          status: 429,
          errorType: 'ThrottlingException',
          message: 'Too many requests.',
          headers: { 'retry-after': '0' },
        }),
      ),
    );
    await expect(agent(3).invoke('q')).rejects.toSatisfy((e) => ModelThrottledError.is(e));
  });
});
