import type { RecordedRequest } from './openai-test-server.js';

/**
 * The body of an OpenAI `POST /embeddings` answer for `vectors`, as the API sends it: floats, or
 * base64 of little-endian float32 when the request asked `encoding_format: 'base64'` (the SDK's default).
 */
export function embeddingsBody(request: RecordedRequest, vectors: readonly (readonly number[])[]): unknown {
  const base64 = request.body['encoding_format'] === 'base64';
  return {
    object: 'list',
    model: request.body['model'],
    data: vectors.map((v, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : [...v],
    })),
    usage: { prompt_tokens: vectors.length, total_tokens: vectors.length },
  };
}
