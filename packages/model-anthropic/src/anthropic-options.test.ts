import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { ConfigurationError, ModelThrottledError } from '@skein/core';
import {
  AnthropicModel,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  DEFAULT_ANTHROPIC_MODEL_ID,
  type AnthropicModelOptions,
} from './index.js';
import { AnthropicTestServer, answerEvents, errorBody } from './testing/index.js';

let server: AnthropicTestServer;
beforeEach(async () => {
  server = await AnthropicTestServer.start();
});
afterEach(async () => {
  await server.close();
});

async function drain(model: AnthropicModel): Promise<void> {
  for await (const _ of model.stream({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] })) void _;
}

describe('AnthropicModel options', () => {
  it('defaults to a current Claude model and 4096 max tokens', () => {
    const model = new AnthropicModel({ clientOptions: { apiKey: 'dummy' } });
    expect(model.modelId).toBe(DEFAULT_ANTHROPIC_MODEL_ID);
    expect(model.modelId).toMatch(/^claude-/);
    expect(model.maxTokens).toBe(DEFAULT_ANTHROPIC_MAX_TOKENS);
  });

  it.each<[string, unknown, RegExp]>([
    ['a non-object', 'claude', /must be an object/],
    ['an unknown option', { model: 'x' }, /unknown option "model".*modelId/],
    ['an empty model id', { modelId: ' ' }, /modelId must be a non-empty string/],
    ['a fractional maxTokens', { maxTokens: 1.5 }, /maxTokens must be a positive integer/],
    ['a zero maxTokens', { maxTokens: 0 }, /maxTokens must be a positive integer/],
    ['params that are not an object', { params: [1] }, /params must be an object/],
    ['params setting a field skein owns', { params: { max_tokens: 5 } }, /params\.max_tokens is set by skein/],
    ['params setting messages', { params: { messages: [] } }, /params\.messages/],
    [
      'client and clientOptions',
      { client: new Anthropic({ apiKey: 'x' }), clientOptions: {} },
      /either client or clientOptions/,
    ],
    ['a client without messages.create', { client: {} }, /no messages\.create/],
  ])('rejects %s with a ConfigurationError', (_, options, message) => {
    const build = (): AnthropicModel => new AnthropicModel(options as AnthropicModelOptions);
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(message);
  });

  it('turns the SDK retries off in the client it builds', async () => {
    server.enqueue(
      { status: 529, body: errorBody('overloaded_error', 'Overloaded') },
      { events: answerEvents({ blocks: [{ text: ['late'] }] }) },
    );
    const model = new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: server.url } });
    await expect(drain(model)).rejects.toSatisfy((e) => ModelThrottledError.is(e));
    expect(server.requests).toHaveLength(1);
  });

  it('honours maxRetries when given in clientOptions', async () => {
    server.enqueue(
      { status: 529, body: errorBody('overloaded_error', 'Overloaded'), headers: { 'retry-after-ms': '1' } },
      { events: answerEvents({ blocks: [{ text: ['ok'] }] }) },
    );
    const model = new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: server.url, maxRetries: 1 } });
    await drain(model);
    expect(server.requests).toHaveLength(2);
  });

  it('uses a passed client as is, with its own retry settings', async () => {
    server.enqueue(
      { status: 529, body: errorBody('overloaded_error', 'Overloaded'), headers: { 'retry-after-ms': '1' } },
      { events: answerEvents({ blocks: [{ text: ['ok'] }] }) },
    );
    const client = new Anthropic({
      apiKey: 'dummy',
      baseURL: server.url,
      maxRetries: 2,
      defaultHeaders: { 'x-app': 'demo' },
    });
    await drain(new AnthropicModel({ client, modelId: 'claude-haiku-5-5' }));
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers['x-app']).toBe('demo');
    expect(server.body()['model']).toBe('claude-haiku-5-5');
  });
});
