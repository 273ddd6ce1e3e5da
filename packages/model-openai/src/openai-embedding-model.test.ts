import { Agent, MemoryError, ModelError, ModelThrottledError } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIEmbeddingModel } from './index.js';
import { embeddingsBody, errorBody, OpenAITestServer } from './testing/index.js';

let server: OpenAITestServer;
beforeEach(async () => {
  server = await OpenAITestServer.start();
});
afterEach(async () => {
  await server.close();
});

describe('OpenAIEmbeddingModel on the wire (the openai SDK against a loopback server)', () => {
  it('POSTs /embeddings with the texts and reads the vectors, base64 as the SDK asks, in index order', async () => {
    server.enqueue((request) => ({
      status: 200,
      body: embeddingsBody(request, [
        [0.5, -1, 2],
        [1, 0, 0.25],
      ]),
    }));
    const model = new OpenAIEmbeddingModel({ modelId: 'nomic-embed-text', baseURL: server.url });
    expect(await model.embed(['order 42', 'refund'])).toEqual([
      [0.5, -1, 2],
      [1, 0, 0.25],
    ]);
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/embeddings');
    expect(sent?.body).toMatchObject({
      model: 'nomic-embed-text',
      input: ['order 42', 'refund'],
      encoding_format: 'base64',
    });
    expect(sent?.body['dimensions']).toBeUndefined();
  });

  it('sends dimensions when given; errors map as the chat model maps them', async () => {
    server.enqueue(
      (request) => ({ status: 200, body: embeddingsBody(request, [[1, 2]]) }),
      { status: 429, body: errorBody('Rate limit reached', 'rate_limit_exceeded'), headers: { 'retry-after': '2' } },
      { status: 404, body: errorBody('model "nope" not found', 'model_not_found') },
    );
    const model = new OpenAIEmbeddingModel({ modelId: 'text-embedding-3-small', dimensions: 2, baseURL: server.url });
    await model.embed(['x']);
    expect(server.requests[0]?.body['dimensions']).toBe(2);
    const throttled = await model.embed(['x']).catch((e: unknown) => e);
    expect(ModelThrottledError.is(throttled)).toBe(true);
    const missing = await model.embed(['x']).catch((e: unknown) => e);
    expect(ModelError.is(missing)).toBe(true);
  });

  it('gives @skein/memory vectors; a server answering the wrong length is a MemoryError and nothing is stored', async () => {
    const { Memory } = await import('@skein/memory');
    const model = new OpenAIEmbeddingModel({ modelId: 'mini', dimensions: 3, baseURL: server.url });
    // Recall's query (a failed recall is skipped, the turn goes on), then the messages when stored.
    const short = (request: Parameters<typeof embeddingsBody>[0]) => ({
      status: 200,
      body: embeddingsBody(request, [[1, 2]]),
    });
    server.enqueue(short, short);
    const memory = new Memory({ recall: { embeddings: model } });
    const error = await new Agent({ model: new ScriptedModel(['ok']), memory })
      .invoke('hello', { memory: { resource: 'ann' } })
      .catch((e: unknown) => e);
    expect(MemoryError.is(error) && error.code).toBe('memory_embedding_dimension');
    expect(await memory.store.listMessages('ann')).toEqual([]);
  });
});
