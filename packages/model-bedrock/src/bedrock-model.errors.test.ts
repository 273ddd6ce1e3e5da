import {
  CancelledError,
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
} from '@skein/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ask, collectUntilError, startHarness, type Harness } from './testing/harness.js';
import { BedrockModel } from './index.js';
import { textFrames } from './testing/bedrock-wire-server.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const partial = textFrames(['Hel', 'lo', ' there']).slice(0, 3);

describe('BedrockModel errors before the stream', () => {
  it('maps a 429 ThrottlingException to ModelThrottledError with retry-after, status, request id and cause; the SDK does not retry', async () => {
    h.server.reply({
      status: 429,
      errorType: 'ThrottlingException',
      message: 'Too many requests, please wait before trying again.',
      headers: { 'retry-after': '3' },
    });
    const { error } = await collectUntilError(h.model(), ask('hi'));
    expect(ModelThrottledError.is(error)).toBe(true);
    const e = error as ModelThrottledError;
    expect(e.retryAfterMs).toBe(3_000);
    expect(e.status).toBe(429);
    expect(e.requestId).toBe('req-1');
    expect((e.cause as Error).name).toBe('ThrottlingException');
    expect(e.message).toContain('Too many requests');
    expect(h.server.requests).toHaveLength(1);
  });

  it('maps 503 ServiceUnavailableException to ModelTransientError', async () => {
    h.server.reply({ status: 503, errorType: 'ServiceUnavailableException', message: 'Service is unavailable.' });
    const { error } = await collectUntilError(h.model(), ask('hi'));
    expect(ModelTransientError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 503 });
  });

  it('maps 500 InternalServerException to ModelTransientError with status and request id', async () => {
    h.server.reply({ status: 500, errorType: 'InternalServerException', message: 'Internal failure.' });
    const { error } = await collectUntilError(h.model(), ask('hi'));
    expect(
      ModelTransientError.is(error) && !ModelThrottledError.is(error) && !ContextWindowOverflowError.is(error),
    ).toBe(true);
    expect(error).toMatchObject({ status: 500, requestId: 'req-1' });
    expect((error as Error).message).toMatch(/InternalServerException, HTTP 500, request id req-1/);
  });

  it.each([
    'Input is too long for requested model.',
    'too many total text bytes: 123456 > 100000',
    'prompt is too long: 210000 tokens > 200000 maximum',
    'input length and `max_tokens` exceed context limit: 199000 + 4096 > 200000, decrease input length or `max_tokens` and try again',
  ])('maps ValidationException "%s" to ContextWindowOverflowError', async (message) => {
    h.server.reply({ status: 400, errorType: 'ValidationException', message });
    const { error } = await collectUntilError(h.model(), ask('hi'));
    expect(ContextWindowOverflowError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, requestId: 'req-1' });
    expect((error as Error).cause).toMatchObject({ name: 'ValidationException' });
  });

  it('maps other ValidationExceptions and access errors to ModelError with a hint', async () => {
    h.server.reply(
      { status: 400, errorType: 'ValidationException', message: 'The provided model identifier is invalid.' },
      { status: 403, errorType: 'AccessDeniedException', message: 'You do not have access to the model.' },
    );
    const first = await collectUntilError(h.model(), ask('hi'));
    expect(ModelError.is(first.error) && !ContextWindowOverflowError.is(first.error)).toBe(true);
    expect((first.error as Error).message).toMatch(/Check modelId/);
    const second = await collectUntilError(h.model(), ask('hi'));
    expect((second.error as ModelError).status).toBe(403);
    expect((second.error as Error).message).toMatch(/credentials/);
  });
});

describe('BedrockModel errors without a response', () => {
  it('maps missing credentials to ModelError saying how to configure them', async () => {
    const noCredentials = (): Promise<never> =>
      Promise.reject(
        Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }),
      );
    const model = new BedrockModel({
      region: 'us-east-1',
      clientConfig: { endpoint: h.server.endpoint, credentials: noCredentials },
    });
    const { error } = await collectUntilError(model, ask('hi'));
    model.client.destroy();
    expect(ModelError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/CredentialsProviderError.*clientConfig.credentials/);
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('BedrockModel exceptions inside the stream', () => {
  it('maps a throttlingException as the first frame to ModelThrottledError', async () => {
    h.server.reply({
      frames: [{ exception: 'throttlingException', body: { message: 'Too many tokens, please wait.' } }],
    });
    const { events, error } = await collectUntilError(h.model(), ask('hi'));
    expect(events).toEqual([]);
    expect(ModelThrottledError.is(error)).toBe(true);
    expect((error as Error).cause).toMatchObject({ name: 'ThrottlingException' });
  });

  it('maps a modelStreamErrorException caused by throttling mid-stream to ModelThrottledError with the request id', async () => {
    h.server.reply({
      frames: [
        ...partial,
        {
          exception: 'modelStreamErrorException',
          body: { message: 'Model stream error', originalStatusCode: 429, originalMessage: 'Too many requests' },
        },
      ],
    });
    const { events, error } = await collectUntilError(h.model(), ask('hi'));
    expect(events).toHaveLength(3);
    expect(ModelThrottledError.is(error)).toBe(true);
    expect(error).toMatchObject({ requestId: 'req-1', status: 429 });
  });

  it('maps an internalServerException mid-stream to ModelTransientError after the events already sent', async () => {
    h.server.reply({
      frames: [...partial, { exception: 'internalServerException', body: { message: 'Something broke' } }],
    });
    const { events, error } = await collectUntilError(h.model(), ask('hi'));
    expect(events.map((e) => Object.keys(e)[0])).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockDelta']);
    expect(ModelTransientError.is(error) && !ModelThrottledError.is(error)).toBe(true);
    expect((error as Error).message).toContain('Something broke');
    expect((error as Error).cause).toMatchObject({ name: 'InternalServerException' });
  });

  it('maps a validationException about the context window mid-stream to ContextWindowOverflowError', async () => {
    h.server.reply({
      frames: [
        ...partial,
        { exception: 'validationException', body: { message: 'Input is too long for requested model.' } },
      ],
    });
    const { error } = await collectUntilError(h.model(), ask('hi'));
    expect(ContextWindowOverflowError.is(error)).toBe(true);
  });

  it('treats a stream that ends without messageStop (a cut connection) as an error, not a short answer', async () => {
    h.server.reply({ frames: partial, end: 'close' });
    const { events, error } = await collectUntilError(h.model(), ask('hi'));
    expect(events).toHaveLength(3);
    expect(ModelTransientError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/ended before messageStop/);
    expect(error).toMatchObject({ requestId: 'req-1' });
  });

  it('maps a reset HTTP/2 stream to ModelTransientError', async () => {
    h.server.reply({ frames: partial, end: 'reset' });
    const { error } = await collectUntilError(h.model(), ask('hi'));
    expect(ModelTransientError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/NGHTTP2_INTERNAL_ERROR/);
  });
});

describe('BedrockModel abort', () => {
  it('yields events as they arrive and stops with CancelledError when the signal aborts mid-stream', async () => {
    h.server.reply({ frames: partial, end: 'hang' });
    const controller = new AbortController();
    const iterator = h
      .model()
      .stream(ask('hi', { signal: controller.signal }))
      [Symbol.asyncIterator]();
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await iterator.next()).value);
    expect(seen[2]).toEqual({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'lo' } } });
    controller.abort(new Error('user pressed stop'));
    const error = await iterator.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(CancelledError.is(error)).toBe(true);
    expect((error as Error).cause).toMatchObject({ message: 'user pressed stop' });
  });

  it('does not send a request when the signal is already aborted', async () => {
    const { error } = await collectUntilError(h.model(), ask('hi', { signal: AbortSignal.abort() }));
    expect(CancelledError.is(error)).toBe(true);
    expect(h.server.requests).toHaveLength(0);
  });
});
