import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { Agent, ModelThrottledError, fallback } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { instrument } from './index.js';
import { harness, only, recordings, tree } from './test-support/harness.js';

describe('an agent on a fallback chain', () => {
  it('names the model that answered on the chat span, and gives each failed attempt its own span', async () => {
    const h = harness();
    const primary = new ScriptedModel([{ error: new ModelThrottledError('overloaded', { status: 529 }) }], {
      modelId: 'claude-primary',
    });
    const backup = new ScriptedModel(
      [{ text: 'ok', usage: { inputTokens: 7, outputTokens: 3, cacheReadInputTokens: 40 } }],
      {
        modelId: 'bedrock-backup',
      },
    );
    const agent = new Agent({ name: 'desk', model: fallback([primary, backup], { circuitBreaker: false }) });
    instrument(agent, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider });
    await agent.invoke('hi');
    const spans = h.spans();
    expect(tree(spans)).toBe(['invoke_agent desk', '  chat bedrock-backup', '    chat claude-primary'].join('\n'));
    const answered = only(spans, 'chat bedrock-backup');
    expect(answered.attributes).toMatchObject({
      'gen_ai.request.model': 'bedrock-backup',
      'gen_ai.response.model': 'bedrock-backup',
      'gen_ai.provider.name': 'skein.scripted',
      'gen_ai.usage.cache_read.input_tokens': 40,
    });
    const failed = only(spans, 'chat claude-primary');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes).toMatchObject({
      'gen_ai.request.model': 'claude-primary',
      'error.type': 'model_throttled',
    });
    const duration = (await h.metrics()).get('gen_ai.client.operation.duration');
    const chat = { 'gen_ai.operation.name': 'chat' };
    expect(
      recordings(duration, { ...chat, 'gen_ai.request.model': 'claude-primary', 'error.type': 'model_throttled' }),
    ).toBe(1);
    expect(recordings(duration, { ...chat, 'gen_ai.request.model': 'bedrock-backup' })).toBe(1);
  });
});
