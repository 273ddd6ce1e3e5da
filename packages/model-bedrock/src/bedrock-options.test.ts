import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { ConfigurationError } from '@skein/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BedrockModel, DEFAULT_BEDROCK_MODEL_ID, DEFAULT_BEDROCK_REGION, type BedrockModelOptions } from './index.js';

const made: BedrockModel[] = [];
function make(options?: BedrockModelOptions): BedrockModel {
  const model = new BedrockModel(options);
  made.push(model);
  return model;
}
afterEach(() => {
  vi.unstubAllEnvs();
  for (const model of made.splice(0)) model.client.destroy();
});

describe('BedrockModel options', () => {
  it('defaults to a current Claude inference profile, streaming, SDK retries off and us-west-2', async () => {
    vi.stubEnv('AWS_REGION', '');
    const model = make();
    expect(model.modelId).toBe(DEFAULT_BEDROCK_MODEL_ID);
    expect(model.modelId).toMatch(/anthropic\.claude/);
    expect(model.streaming).toBe(true);
    expect(await model.client.config.region()).toBe(DEFAULT_BEDROCK_REGION);
    expect(await model.client.config.maxAttempts()).toBe(1);
  });

  it('takes the region from options, then AWS_REGION', async () => {
    vi.stubEnv('AWS_REGION', 'eu-central-1');
    expect(await make().client.config.region()).toBe('eu-central-1');
    expect(await make({ region: 'ap-southeast-2' }).client.config.region()).toBe('ap-southeast-2');
  });

  it('lets clientConfig turn SDK retries back on', async () => {
    expect(await make({ clientConfig: { maxAttempts: 3 } }).client.config.maxAttempts()).toBe(3);
  });

  it('uses a passed client as is', async () => {
    const client = new BedrockRuntimeClient({ region: 'us-east-2', maxAttempts: 5 });
    const model = make({ client, modelId: 'amazon.nova-pro-v1:0' });
    expect(model.client).toBe(client);
    expect(model.modelId).toBe('amazon.nova-pro-v1:0');
    expect(await model.client.config.maxAttempts()).toBe(5);
  });

  it.each<[string, unknown, RegExp]>([
    ['unknown option', { modelID: 'x' }, /unknown option modelID/],
    ['empty modelId', { modelId: '' }, /modelId must be a non-empty string/],
    [
      'client with region',
      { client: new BedrockRuntimeClient({ region: 'us-east-1' }), region: 'us-east-1' },
      /with `client` set/,
    ],
    ['bad maxTokens', { params: { maxTokens: 0 } }, /maxTokens must be a positive integer/],
    ['bad temperature', { params: { temperature: -1 } }, /temperature/],
    ['bad topP', { params: { topP: 2 } }, /topP must be a number in 0..1/],
    ['bad stopSequences', { params: { stopSequences: 'END' } }, /stopSequences/],
    ['unknown param', { params: { max_tokens: 10 } }, /unknown option params.max_tokens/],
    ['guardrail without version', { guardrail: { guardrailIdentifier: 'g' } }, /guardrailVersion/],
    [
      'bad guardrail trace',
      { guardrail: { guardrailIdentifier: 'g', guardrailVersion: '1', trace: 'on' } },
      /guardrail.trace/,
    ],
    ['bad cachePrompt', { cachePrompt: true }, /cachePrompt must be 'default'/],
    ['bad cacheTools', { cacheTools: 'ephemeral' }, /cacheTools must be 'default'/],
    ['bad streaming', { streaming: 'no' }, /streaming must be a boolean/],
  ])('rejects %s with a ConfigurationError', (_, options, message) => {
    let error: unknown;
    try {
      make(options as BedrockModelOptions);
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
  });
});
