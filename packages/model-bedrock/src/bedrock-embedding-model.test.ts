import { ModelThrottledError } from '@skein/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BedrockEmbeddingModel } from './index.js';
import { BedrockWireServer, type WireRequest } from './testing/index.js';

let server: BedrockWireServer;
const models: BedrockEmbeddingModel[] = [];
beforeEach(async () => {
  server = await new BedrockWireServer().start();
});
afterEach(async () => {
  for (const m of models.splice(0)) m.client.destroy();
  await server.close();
});

const model = (options: ConstructorParameters<typeof BedrockEmbeddingModel>[0] = {}): BedrockEmbeddingModel => {
  const m = new BedrockEmbeddingModel({
    ...options,
    region: 'us-east-1',
    clientConfig: { endpoint: server.endpoint, credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' } },
  });
  models.push(m);
  return m;
};
const body = (r: WireRequest | undefined): Record<string, unknown> => r?.body as Record<string, unknown>;

describe('BedrockEmbeddingModel on the wire (the AWS SDK against a loopback Bedrock server)', () => {
  it('Titan v2: one signed InvokeModel per text, with dimensions; the vectors in order', async () => {
    server.fallback = (request) => ({
      json: { embedding: [String(body(request)['inputText']).length, 1], inputTextTokenCount: 3 },
    });
    const vectors = await model({ dimensions: 256 }).embed(['order 42', 'refund it']);
    expect(vectors).toEqual([
      [8, 1],
      [9, 1],
    ]);
    expect(server.requests.map((r) => r.path).sort()).toEqual([
      '/model/amazon.titan-embed-text-v2%3A0/invoke',
      '/model/amazon.titan-embed-text-v2%3A0/invoke',
    ]);
    expect(body(server.requests[0])).toMatchObject({ dimensions: 256 });
    expect(String(server.requests[0]?.headers['authorization'])).toMatch(/^AWS4-HMAC-SHA256 /);
  });

  it('Cohere: the texts in one request with input_type; a throttled answer is a ModelThrottledError', async () => {
    server.replies.push(
      (request) => ({
        json: {
          id: 'x',
          response_type: 'embeddings_floats',
          texts: body(request)['texts'],
          embeddings: [
            [1, 0],
            [0, 1],
          ],
        },
      }),
      { status: 429, errorType: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' },
    );
    const cohere = model({ modelId: 'cohere.embed-english-v3' });
    expect(await cohere.embed(['a', 'b'])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(body(server.requests[0])).toEqual({ texts: ['a', 'b'], input_type: 'search_document', truncate: 'END' });
    expect(ModelThrottledError.is(await cohere.embed(['a']).catch((e: unknown) => e))).toBe(true);
  });

  it('refuses a model it does not speak', () => {
    expect(() => new BedrockEmbeddingModel({ modelId: 'anthropic.claude-3' })).toThrow(
      /Titan Text Embeddings and Cohere Embed/,
    );
  });
});
