import { describe, expect, it } from 'vitest';
import { ModelThrottledError, type Model, type ModelStreamEvent } from '@skein/core';
import { messagesJson } from './content.js';
import { errorType } from './errors.js';
import { providerOfModel } from './index.js';

const modelNamed = (className: string, extra: Record<string, unknown> = {}): Model => {
  const cls = {
    [className]: class {
      readonly modelId = 'm';
      async *stream(): AsyncGenerator<ModelStreamEvent> {}
    },
  }[className] as new () => Model;
  return Object.assign(new cls(), extra);
};

describe('the mapping tables', () => {
  it.each([
    ['AnthropicModel', 'anthropic'],
    ['BedrockModel', 'aws.bedrock'],
    ['OpenAIModel', 'openai'],
    ['ScriptedModel', 'skein.scripted'],
    ['MyModel', 'skein'],
  ])('gen_ai.provider.name of a %s is %s', (className, provider) => {
    expect(providerOfModel(modelNamed(className))).toBe(provider);
  });

  it('takes a model’s own providerName first', () => {
    expect(providerOfModel(modelNamed('OpenAIModel', { providerName: 'azure.ai.openai' }))).toBe('azure.ai.openai');
  });

  it.each([
    [new ModelThrottledError('slow'), 'model_throttled'],
    [new TypeError('bad'), 'TypeError'],
    ['a string', '_OTHER'],
    [undefined, '_OTHER'],
  ])('error.type of %s is %s', (error, type) => {
    expect(errorType(error)).toBe(type);
  });

  it('turns every content block into a conventions part', () => {
    const json = messagesJson([
      {
        role: 'assistant',
        content: [
          { text: 'Let me look.' },
          { reasoningContent: { reasoningText: { text: 'Order lookup first.' } } },
          { toolUse: { toolUseId: 't1', name: 'lookup', input: { id: 42 } } },
          { image: { format: 'png', source: { bytes: new Uint8Array([1]) } } },
          { cachePoint: { type: 'default' } },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 't1', status: 'success', content: [{ text: 'shipped' }, { json: { eta: 2 } }] } },
        ],
      },
    ]);
    expect(JSON.parse(json)).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'text', content: 'Let me look.' },
          { type: 'reasoning', content: 'Order lookup first.' },
          { type: 'tool_call', id: 't1', name: 'lookup', arguments: { id: 42 } },
          { type: 'blob', modality: 'image' },
        ],
      },
      { role: 'user', parts: [{ type: 'tool_call_response', id: 't1', response: ['shipped', { eta: 2 }] }] },
    ]);
  });
});
