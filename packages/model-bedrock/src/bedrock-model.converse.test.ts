import { ContextWindowOverflowError, ModelThrottledError } from '@skein/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ask, collect, collectUntilError, startHarness, type Harness } from './testing/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('BedrockModel with streaming: false (Converse)', () => {
  it('calls /converse and replays the answer as the events ConverseStream would send', async () => {
    h.server.reply({
      json: {
        output: {
          message: {
            role: 'assistant',
            content: [
              { reasoningContent: { reasoningText: { text: 'hmm', signature: 'sig' } } },
              { text: 'Weighing.' },
              { toolUse: { toolUseId: 't1', name: 'weigh', input: { item: 'cat', precise: true } } },
            ],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 30, outputTokens: 10, totalTokens: 40, cacheReadInputTokens: 25 },
        metrics: { latencyMs: 120 },
      },
    });
    const model = h.model({
      streaming: false,
      guardrail: { guardrailIdentifier: 'g', guardrailVersion: '1', streamProcessingMode: 'async' },
    });
    const events = await collect(model, ask('weigh the cat'));
    expect(h.server.requests[0]?.path).toMatch(/\/converse$/);
    expect((h.server.requests[0]?.body as { guardrailConfig: unknown }).guardrailConfig).toEqual({
      guardrailIdentifier: 'g',
      guardrailVersion: '1',
    });
    expect(events).toEqual([
      { messageStart: { role: 'assistant' } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'hmm' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { text: 'Weighing.' } } },
      { contentBlockStop: { contentBlockIndex: 1 } },
      { contentBlockStart: { contentBlockIndex: 2, start: { toolUse: { toolUseId: 't1', name: 'weigh' } } } },
      { contentBlockDelta: { contentBlockIndex: 2, delta: { toolUse: { input: '{"item":"cat","precise":true}' } } } },
      { contentBlockStop: { contentBlockIndex: 2 } },
      { messageStop: { stopReason: 'tool_use' } },
      {
        metadata: {
          usage: { inputTokens: 30, outputTokens: 10, totalTokens: 40, cacheReadInputTokens: 25 },
          metrics: { latencyMs: 120 },
        },
      },
    ]);
  });

  it('maps Converse errors like ConverseStream errors', async () => {
    h.server.reply(
      { status: 429, errorType: 'ThrottlingException', message: 'Rate exceeded', headers: { 'retry-after-ms': '250' } },
      { status: 400, errorType: 'ValidationException', message: 'Input is too long for requested model.' },
    );
    const model = h.model({ streaming: false });
    const throttled = await collectUntilError(model, ask('hi'));
    expect(ModelThrottledError.is(throttled.error)).toBe(true);
    expect((throttled.error as ModelThrottledError).retryAfterMs).toBe(250);
    const overflow = await collectUntilError(model, ask('hi'));
    expect(ContextWindowOverflowError.is(overflow.error)).toBe(true);
    expect(h.server.requests).toHaveLength(2);
  });
});
