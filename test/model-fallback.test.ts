import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, ModelError, ModelFallbackError, fallback, type AgentStreamEvent, type Model } from '@skein/core';
import { AnthropicModel } from '@skein/model-anthropic';
import { AnthropicTestServer, answerEvents, errorBody, type ScriptedReply } from '@skein/model-anthropic/testing';
import { BedrockModel } from '@skein/model-bedrock';
import { BedrockWireServer, textFrames } from '@skein/model-bedrock/testing';

// A fallback chain of real providers through their real SDKs against loopback servers: which errors
// move on, and how many requests each server receives (one retry layer: the agent's retry strategy;
// the SDKs' own retries are off in the clients skein builds, and the chain tries each model once).

let anthropic: AnthropicTestServer;
let bedrockServer: BedrockWireServer;
let bedrock: BedrockModel;
beforeEach(async () => {
  anthropic = await AnthropicTestServer.start();
  bedrockServer = await new BedrockWireServer().start();
  bedrock = new BedrockModel({
    modelId: 'anthropic.claude-on-bedrock',
    region: 'us-east-1',
    clientConfig: {
      endpoint: bedrockServer.endpoint,
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
    },
  });
});
afterEach(async () => {
  bedrock.client.destroy();
  await Promise.all([anthropic.close(), bedrockServer.close()]);
});

const claude = (): AnthropicModel =>
  new AnthropicModel({ modelId: 'claude-primary', clientOptions: { apiKey: 'dummy', baseURL: anthropic.url } });
const chain = (): Model => fallback([claude(), bedrock], { circuitBreaker: false });
const fastRetries = (maxAttempts: number) => ({
  maxAttempts,
  initialDelayMs: 1,
  transientInitialDelayMs: 1,
  maxDelayMs: 2,
  jitter: false,
});
const overloaded: ScriptedReply = { status: 529, body: errorBody('overloaded_error', 'Overloaded') };
const attemptsOf = (agent: Agent): string[] => {
  const out: string[] = [];
  agent.on('modelAttempt', (e: Extract<AgentStreamEvent, { type: 'modelAttempt' }>) =>
    out.push(`${e.modelId}:${e.outcome}`),
  );
  return out;
};

describe('fallback([AnthropicModel, BedrockModel])', () => {
  it.each<[string, ScriptedReply]>([
    ['529 overloaded', overloaded],
    ['429 rate limited', { status: 429, body: errorBody('rate_limit_error', 'slow down') }],
    ['503', { status: 503, body: errorBody('api_error', 'unavailable') }],
    ['a stream cut before any output', { events: answerEvents({ blocks: [{ text: ['never seen'] }] }), cutAfter: 1 }],
  ])('moves on to Bedrock after %s, one request to each server', async (_, fault) => {
    anthropic.enqueue(fault);
    bedrockServer.reply({ frames: textFrames(['Answered ', 'by Bedrock.']) });
    const agent = new Agent({ model: chain(), retryStrategy: fastRetries(6) });
    const attempts = attemptsOf(agent);
    const result = await agent.invoke('hello');
    expect(String(result)).toBe('Answered by Bedrock.');
    expect(attempts).toEqual(['claude-primary:failed', 'anthropic.claude-on-bedrock:answered']);
    expect([anthropic.requests.length, bedrockServer.requests.length]).toEqual([1, 1]);
    expect(result.metrics.models).toEqual({ 'anthropic.claude-on-bedrock': 1 });
  });

  it('moves on when the Anthropic server cannot be reached (connection refused)', async () => {
    const url = anthropic.url;
    await anthropic.close();
    bedrockServer.reply({ frames: textFrames(['still here']) });
    const refused = new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: url } });
    const result = await new Agent({ model: fallback([refused, bedrock], { circuitBreaker: false }) }).invoke('hi');
    expect(String(result)).toBe('still here');
    anthropic = await AnthropicTestServer.start(); // for afterEach
  });

  it('does not move on after a 400: Bedrock gets no request and the error is the primary one', async () => {
    anthropic.enqueue({ status: 400, body: errorBody('invalid_request_error', 'messages: bad role') });
    const agent = new Agent({ model: chain(), retryStrategy: fastRetries(6) });
    const error = await agent.invoke('hi').catch((e: unknown) => e);
    expect(ModelError.is(error) && error.status).toBe(400);
    expect(ModelFallbackError.is(error)).toBe(false);
    expect([anthropic.requests.length, bedrockServer.requests.length]).toEqual([1, 0]);
  });

  it('does not move a stream that already streamed text to Bedrock; the retry goes to Anthropic again', async () => {
    const cut = answerEvents({ blocks: [{ text: ['Partial ', 'answer ', 'that is cut'] }], pings: false });
    anthropic.enqueue(
      { events: cut, cutAfter: 4 },
      { events: answerEvents({ blocks: [{ text: ['Whole answer.'] }] }) },
    );
    const agent = new Agent({ model: chain(), retryStrategy: fastRetries(6) });
    const retries: AgentStreamEvent[] = [];
    agent.on('modelRetry', (e) => retries.push(e));
    const result = await agent.invoke('hi');
    expect(String(result)).toBe('Whole answer.');
    expect(retries).toMatchObject([{ discardedPartialAnswer: true }]);
    expect([anthropic.requests.length, bedrockServer.requests.length]).toEqual([2, 0]);
  });

  it('retries do not multiply: maxAttempts bounds the requests to both servers together', async () => {
    for (let i = 0; i < 10; i++) anthropic.enqueue(overloaded);
    bedrockServer.fallback = { status: 503, errorType: 'ServiceUnavailableException', message: 'down' };
    const agent = new Agent({ model: chain(), retryStrategy: fastRetries(6) });
    const error = await agent.invoke('hi').catch((e: unknown) => e);
    expect(ModelFallbackError.is(error)).toBe(true);
    // Three passes over the two-model chain: 6 requests, not 6 attempts x 2 models (x 3 SDK tries).
    expect([anthropic.requests.length, bedrockServer.requests.length]).toEqual([3, 3]);
  });

  it('the all-failed error names the primary error and each attempt', async () => {
    anthropic.enqueue(overloaded);
    bedrockServer.reply({ status: 429, errorType: 'ThrottlingException', message: 'Too many tokens' });
    const error = await new Agent({ model: chain(), retryStrategy: null }).invoke('hi').catch((e: unknown) => e);
    if (!ModelFallbackError.is(error)) throw new Error(`expected ModelFallbackError, got ${String(error)}`);
    expect(error.message).toMatch(
      /The primary claude-primary failed with: Anthropic is overloaded \(with status 529\)/,
    );
    expect(error.message).toMatch(/2\. anthropic\.claude-on-bedrock failed after \d+ ms at .*ThrottlingException/);
    expect(error.attempts.map((a) => a.modelId)).toEqual(['claude-primary', 'anthropic.claude-on-bedrock']);
  });
});
