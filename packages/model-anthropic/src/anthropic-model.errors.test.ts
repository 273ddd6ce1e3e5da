import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APIError } from '@anthropic-ai/sdk';
import {
  CancelledError,
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
  type ModelRequest,
  type ModelStreamEvent,
} from '@skein/core';
import { AnthropicModel } from './index.js';
import { AnthropicTestServer, answerEvents, errorBody, errorEvent } from './testing/index.js';

let server: AnthropicTestServer;
let model: AnthropicModel;

beforeEach(async () => {
  server = await AnthropicTestServer.start();
  model = new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: server.url } });
});
afterEach(async () => {
  await server.close();
});

const hello: ModelRequest = { messages: [{ role: 'user', content: [{ text: 'Hello' }] }] };

/** Runs the stream to its end and returns the error it threw, with the events seen before it. */
async function failure(request: ModelRequest = hello): Promise<{ error: unknown; events: ModelStreamEvent[] }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of model.stream(request)) events.push(event);
  } catch (error) {
    return { error, events };
  }
  throw new Error(`The stream ended normally after ${events.length} events.`);
}

describe('AnthropicModel errors on the wire', () => {
  it('maps 429 to ModelThrottledError with retry-after (seconds), without SDK retries', async () => {
    server.enqueue({
      status: 429,
      body: errorBody('rate_limit_error', 'Number of requests has exceeded your rate limit'),
      headers: { 'retry-after': '7', 'request-id': 'req_429' },
    });
    const { error } = await failure();
    expect(ModelThrottledError.is(error)).toBe(true);
    const e = error as ModelThrottledError;
    expect(e.retryAfterMs).toBe(7000);
    expect(e.status).toBe(429);
    expect(e.requestId).toBe('req_429');
    expect(e.cause).toBeInstanceOf(APIError);
    expect(e.message).toContain('rate limit');
    expect(server.requests).toHaveLength(1);
  });

  it('prefers retry-after-ms', async () => {
    server.enqueue({
      status: 429,
      body: errorBody('rate_limit_error', 'slow down'),
      headers: { 'retry-after-ms': '1500', 'retry-after': '2' },
    });
    expect(((await failure()).error as ModelThrottledError).retryAfterMs).toBe(1500);
  });

  it('reads retry-after given as an HTTP date', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    server.enqueue({ status: 429, body: errorBody('rate_limit_error', 'slow down'), headers: { 'retry-after': at } });
    const wait = ((await failure()).error as ModelThrottledError).retryAfterMs;
    expect(wait).toBeGreaterThan(20_000);
    expect(wait).toBeLessThanOrEqual(30_000);
  });

  it('maps 529 overloaded to ModelThrottledError', async () => {
    server.enqueue({ status: 529, body: errorBody('overloaded_error', 'Overloaded') });
    const { error } = await failure();
    expect(ModelThrottledError.is(error)).toBe(true);
    expect((error as ModelThrottledError).status).toBe(529);
    expect((error as ModelThrottledError).retryAfterMs).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it.each([500, 502, 503, 504])(
    'maps %i to ModelTransientError with status and request id, not retried by the SDK',
    async (status) => {
      server.enqueue({
        status,
        body: errorBody('api_error', 'Internal server error'),
        headers: { 'request-id': 'req_500' },
      });
      const { error } = await failure();
      expect(
        ModelTransientError.is(error) && !ModelThrottledError.is(error) && !ContextWindowOverflowError.is(error),
      ).toBe(true);
      expect(error).toMatchObject({ status, requestId: 'req_500', code: 'model_transient' });
      expect((error as Error).message).toContain('Internal server error');
      expect(server.requests).toHaveLength(1);
    },
  );

  it.each([
    'prompt is too long: 208532 tokens > 200000 maximum',
    'input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again',
    'too many total text bytes: 9500000 > 9000000',
  ])('maps 400 "%s" to ContextWindowOverflowError', async (message) => {
    server.enqueue({ status: 400, body: errorBody('invalid_request_error', message) });
    const { error } = await failure();
    expect(ContextWindowOverflowError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 400 });
    expect((error as Error).message).toContain(message.slice(0, 20));
  });

  it('keeps other 400s as ModelError', async () => {
    server.enqueue({ status: 400, body: errorBody('invalid_request_error', 'messages.0.content: Field required') });
    const { error } = await failure();
    expect(ModelError.is(error) && !ContextWindowOverflowError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, code: 'model_error' });
  });

  it('maps an overloaded error event in the middle of the stream to ModelThrottledError', async () => {
    const events = answerEvents({ blocks: [{ text: ['partial', 'never'] }] });
    server.enqueue({ events: [...events.slice(0, 4), errorEvent('overloaded_error', 'Overloaded')] });
    const { error, events: seen } = await failure();
    expect(seen).toContainEqual({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'partial' } } });
    expect(ModelThrottledError.is(error)).toBe(true);
    expect((error as ModelThrottledError).status).toBeUndefined();
    expect((error as Error).message).toContain('in the middle of the stream');
  });

  it('maps an api_error event in the middle of the stream to ModelTransientError', async () => {
    const events = answerEvents({ blocks: [{ text: ['partial'] }] });
    server.enqueue({ events: [...events.slice(0, 4), errorEvent('api_error', 'Internal server error')] });
    const { error } = await failure();
    expect(ModelTransientError.is(error) && !ModelThrottledError.is(error)).toBe(true);
  });

  it('keeps 401 and 403 permanent: ModelError, not retried', async () => {
    server.enqueue({ status: 401, body: errorBody('authentication_error', 'invalid x-api-key') });
    const { error } = await failure();
    expect(ModelError.is(error) && !ModelTransientError.is(error) && !ModelThrottledError.is(error)).toBe(true);
  });

  it('treats a stream cut before message_stop as an error, never a short answer', async () => {
    const events = answerEvents({ blocks: [{ text: ['Hello', ' there'] }] });
    server.enqueue({ events, cutAfter: events.length - 2 }); // message_delta sent, message_stop never
    const { error, events: seen } = await failure();
    expect(ModelTransientError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/incomplete/);
    expect(seen).toContainEqual({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: ' there' } } });
    expect(seen.some((e) => 'messageStop' in e)).toBe(false);
  });

  it('treats a response that ends cleanly without message_stop as an error too', async () => {
    const events = answerEvents({ blocks: [{ text: ['Hello'] }] });
    server.enqueue({ events: events.slice(0, -1) });
    const { error } = await failure();
    expect(ModelTransientError.is(error)).toBe(true);
    expect((error as Error).message).toContain('before message_stop');
  });

  it('aborts mid-stream through request.signal: CancelledError, and the connection is closed', async () => {
    server.enqueue({ events: answerEvents({ blocks: [{ text: ['one', 'two', 'three'] }] }), stallAfter: 4 });
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    const run = (async () => {
      for await (const event of model.stream({ ...hello, signal: controller.signal })) {
        seen.push(event);
        if ('contentBlockDelta' in event) controller.abort(new Error('user pressed stop'));
      }
    })();
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(CancelledError.is(error)).toBe(true);
    expect((error as Error).cause).toMatchObject({ message: 'user pressed stop' });
    for (let i = 0; i < 200 && server.clientDisconnects === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(server.clientDisconnects).toBe(1);
  });

  it('aborts while waiting for the response headers: CancelledError', async () => {
    const controller = new AbortController();
    server.enqueue(() => {
      controller.abort();
      return { events: answerEvents({ blocks: [{ text: ['never'] }] }), stallAfter: 0 };
    });
    const { error, events } = await failure({ ...hello, signal: controller.signal });
    expect(CancelledError.is(error)).toBe(true);
    expect(events).toEqual([]);
  });

  it('fails fast with CancelledError when the signal is already aborted', async () => {
    const { error } = await failure({ ...hello, signal: AbortSignal.abort() });
    expect(CancelledError.is(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('maps a refused connection to ModelTransientError', async () => {
    const port = new URL(server.url).port;
    await server.close();
    model = new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: `http://127.0.0.1:${port}` } });
    server = await AnthropicTestServer.start();
    const { error } = await failure();
    expect(ModelTransientError.is(error)).toBe(true);
    expect((error as Error).message).toContain('Anthropic request failed on the network');
  });
});
