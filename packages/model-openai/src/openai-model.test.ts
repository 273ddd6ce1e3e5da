import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CancelledError,
  ConfigurationError,
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
  type ModelRequest,
  type ModelStreamEvent,
} from '@skein/core';
import { OpenAIModel } from './index.js';
import { chatChunks, errorBody, OpenAITestServer } from './testing/index.js';

let server: OpenAITestServer;
let model: OpenAIModel;
beforeEach(async () => {
  server = await OpenAITestServer.start();
  model = new OpenAIModel({ modelId: 'llama3.2', baseURL: server.url });
});
afterEach(async () => {
  await server.close();
});

const hello: ModelRequest = { messages: [{ role: 'user', content: [{ text: 'Hello' }] }] };
async function collect(request: ModelRequest = hello): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of model.stream(request)) out.push(e);
  return out;
}
async function failure(request: ModelRequest = hello): Promise<{ error: unknown; events: ModelStreamEvent[] }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of model.stream(request)) events.push(e);
  } catch (error) {
    return { error, events };
  }
  throw new Error('the stream ended normally');
}
const text = (events: ModelStreamEvent[]): string =>
  events
    .map((e) => ('contentBlockDelta' in e && 'text' in e.contentBlockDelta.delta ? e.contentBlockDelta.delta.text : ''))
    .join('');

describe('OpenAIModel request', () => {
  it('sends the system prompt, text, images, tool results as role tool, tool calls, tools and tool_choice', async () => {
    server.enqueue({ chunks: chatChunks({ text: ['ok'] }) });
    await collect({
      systemPrompt: 'Be brief.',
      messages: [
        {
          role: 'user',
          content: [
            { text: 'Look at this' },
            { image: { format: 'png', source: { bytes: new Uint8Array([1, 2, 3]) } } },
          ],
        },
        {
          role: 'assistant',
          content: [{ text: 'Looking.' }, { toolUse: { toolUseId: 'call_1', name: 'lookup', input: { id: '42' } } }],
        },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 'call_1', status: 'success', content: [{ json: { total: 80 } }] } }],
        },
      ],
      toolSpecs: [
        {
          name: 'lookup',
          description: 'Looks up.',
          inputSchema: { json: { type: 'object', properties: { id: { type: 'string' } } } },
        },
      ],
      toolChoice: { tool: { name: 'lookup' } },
    });
    const body = server.requests[0]?.body;
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(body).toMatchObject({ model: 'llama3.2', stream: true, stream_options: { include_usage: true } });
    expect(body?.['messages']).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look at this' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"id":"42"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"total":80}' },
    ]);
    expect(body?.['tools']).toEqual([
      {
        type: 'function',
        function: {
          name: 'lookup',
          description: 'Looks up.',
          parameters: { type: 'object', properties: { id: { type: 'string' } } },
        },
      },
    ]);
    expect(body?.['tool_choice']).toEqual({ type: 'function', function: { name: 'lookup' } });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer no-key-needed');
  });

  it('maps auto and any tool choices, sends params, and refuses params skein sets', async () => {
    server.enqueue({ chunks: chatChunks({ text: ['a'] }) }, { chunks: chatChunks({ text: ['b'] }) });
    model = new OpenAIModel({
      modelId: 'm',
      baseURL: server.url,
      params: { temperature: 0.2, max_completion_tokens: 100 },
    });
    await collect({
      ...hello,
      toolSpecs: [{ name: 't', description: 'd', inputSchema: { json: { type: 'object' } } }],
      toolChoice: { any: {} },
    });
    await collect({ ...hello, toolChoice: { auto: {} } });
    expect(server.requests.map((r) => r.body['tool_choice'])).toEqual(['required', 'auto']);
    expect(server.requests[0]?.body).toMatchObject({ temperature: 0.2, max_completion_tokens: 100 });
    expect(() => new OpenAIModel({ baseURL: server.url, params: { stream: false } })).toThrow(
      /params cannot set stream/,
    );
  });

  it('takes baseURL and the key from the environment, and explains a missing key', () => {
    const saved = { key: process.env['OPENAI_API_KEY'], url: process.env['OPENAI_BASE_URL'] };
    try {
      delete process.env['OPENAI_API_KEY'];
      delete process.env['OPENAI_BASE_URL'];
      expect(() => new OpenAIModel()).toThrow(ConfigurationError);
      expect(() => new OpenAIModel()).toThrow(/set OPENAI_API_KEY \(or pass apiKey\), or point baseURL/);
      process.env['OPENAI_BASE_URL'] = server.url;
      expect(new OpenAIModel().client.baseURL).toBe(server.url);
      expect(() => new OpenAIModel({ baseURL: 'localhost:11434' })).toThrow(/must be an http\(s\) URL/);
    } finally {
      if (saved.key === undefined) delete process.env['OPENAI_API_KEY'];
      else process.env['OPENAI_API_KEY'] = saved.key;
      if (saved.url === undefined) delete process.env['OPENAI_BASE_URL'];
      else process.env['OPENAI_BASE_URL'] = saved.url;
    }
  });
});

describe('OpenAIModel stream', () => {
  it('streams text, reasoning, stop reason and usage with cached tokens', async () => {
    server.enqueue({
      chunks: chatChunks({
        reasoning: ['Think', 'ing.'],
        text: ['Hel', 'lo'],
        usage: { prompt_tokens: 100, completion_tokens: 7, cached_tokens: 60 },
      }),
    });
    const events = await collect();
    expect(events[0]).toEqual({ messageStart: { role: 'assistant' } });
    expect(text(events)).toBe('Hello');
    expect(events).toContainEqual({
      contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Think' } } },
    });
    expect(events).toContainEqual({ messageStop: { stopReason: 'end_turn' } });
    const metadata = events.at(-1);
    expect(metadata).toMatchObject({
      metadata: { usage: { inputTokens: 40, outputTokens: 7, totalTokens: 107, cacheReadInputTokens: 60 } },
    });
  });

  it('assembles several tool calls whose fragments interleave by index, split at every byte', async () => {
    const calls = [
      { id: 'call_a', name: 'lookup', args: ['{"id"', ':"4', '2"}'] },
      { id: 'call_b', name: 'refund', args: ['{"amo', 'unt":', '80}'] },
    ];
    server.enqueue({
      chunks: chatChunks({ text: ['Doing both.'], toolCalls: calls, interleave: true }),
      splitBytes: 1,
    });
    const events = await collect();
    const starts = events.flatMap((e) => ('contentBlockStart' in e ? [e.contentBlockStart] : []));
    expect(starts).toEqual([
      { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'call_a', name: 'lookup' } } },
      { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'call_b', name: 'refund' } } },
    ]);
    const input = (i: number): string =>
      events
        .map((e) =>
          'contentBlockDelta' in e &&
          e.contentBlockDelta.contentBlockIndex === i &&
          'toolUse' in e.contentBlockDelta.delta
            ? e.contentBlockDelta.delta.toolUse.input
            : '',
        )
        .join('');
    expect([input(1), input(2)]).toEqual(['{"id":"42"}', '{"amount":80}']);
    expect(events).toContainEqual({ messageStop: { stopReason: 'tool_use' } });
    expect(events.filter((e) => 'contentBlockStop' in e)).toHaveLength(3);
  });

  it('gives tool calls an id when a local server sends none, and treats finish_reason stop with tool calls as tool use', async () => {
    server.enqueue({ chunks: chatChunks({ toolCalls: [{ name: 'lookup', args: ['{}'] }], finish: 'stop' }) });
    const events = await collect();
    const start = events.find((e) => 'contentBlockStart' in e);
    expect(start && 'contentBlockStart' in start ? start.contentBlockStart.start.toolUse.toolUseId : '').toMatch(
      /^call_/,
    );
    expect(events).toContainEqual({ messageStop: { stopReason: 'tool_use' } });
  });

  it.each([
    ['length', 'max_tokens'],
    ['content_filter', 'content_filtered'],
  ])('maps finish_reason %s to %s', async (finish, stop) => {
    server.enqueue({ chunks: chatChunks({ text: ['x'], finish }) });
    expect(await collect()).toContainEqual({ messageStop: { stopReason: stop } });
  });
});

describe('OpenAIModel errors', () => {
  it('maps 429 to ModelThrottledError with retry-after-ms, and the SDK does not retry', async () => {
    server.enqueue({
      status: 429,
      body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
      headers: { 'retry-after-ms': '250' },
    });
    const { error } = await failure();
    expect(ModelThrottledError.is(error) && error.retryAfterMs === 250).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [
      'OpenAI',
      errorBody(
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        'invalid_request_error',
        'context_length_exceeded',
      ),
    ],
    [
      'vLLM',
      {
        error: {
          message:
            "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
          type: 'BadRequestError',
          param: null,
          code: 400,
        },
      },
    ],
    [
      'llama.cpp',
      {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
        },
      },
    ],
    ['Ollama', { error: { message: 'prompt is too long for the context window', type: 'api_error' } }],
  ])('maps the context-length error of %s to ContextWindowOverflowError', async (_server, body) => {
    server.enqueue({ status: 400, body });
    const { error } = await failure();
    expect(ContextWindowOverflowError.is(error)).toBe(true);
  });

  it('maps 500 and 503 to ModelTransientError', async () => {
    server.enqueue(
      { status: 500, body: errorBody('The server had an error', 'server_error') },
      { status: 503, body: errorBody('Overloaded', 'server_error') },
    );
    expect(ModelTransientError.is((await failure()).error)).toBe(true);
    expect(ModelTransientError.is((await failure()).error)).toBe(true);
  });

  it('says which variable to set on 401', async () => {
    server.enqueue({
      status: 401,
      body: errorBody('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'),
    });
    const { error } = await failure();
    expect(ModelError.is(error) && !ModelTransientError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/Set OPENAI_API_KEY \(or the apiKey option\)/);
  });

  it('names the URL when no server is running there (transient: retried)', async () => {
    await server.close();
    const { error } = await failure();
    expect(ModelTransientError.is(error)).toBe(true);
    expect((error as Error).message).toContain(`Could not reach the model server at ${server.url}`);
    server = await OpenAITestServer.start();
  });

  it('treats a cut connection and a close before finish_reason as transient, never a short answer', async () => {
    const chunks = chatChunks({ text: ['Hello', ' there'] });
    server.enqueue({ chunks, cutAfter: 2 }, { chunks, closeAfter: 2 });
    for (let i = 0; i < 2; i++) {
      const { error, events } = await failure();
      expect(ModelTransientError.is(error)).toBe(true);
      expect(events.some((e) => 'contentBlockDelta' in e)).toBe(true); // the cut came after partial text
      expect(events.some((e) => 'messageStop' in e)).toBe(false);
    }
  });

  it('maps an error chunk inside the stream by its code (vLLM / OpenAI send `data: {"error": ...}`)', async () => {
    const start = chatChunks({ text: ['par', 'tial'] }).slice(0, 2);
    server.enqueue(
      { chunks: [...start, errorBody('The server had an error while processing your request.', 'server_error')] },
      { chunks: [...start, errorBody('Rate limit reached.', 'requests', 'rate_limit_exceeded')] },
      { chunks: [...start, errorBody('Invalid schema for function lookup.', 'invalid_request_error')] },
    );
    const [first, second, third] = [await failure(), await failure(), await failure()];
    expect(ModelTransientError.is(first.error)).toBe(true);
    expect(ModelThrottledError.is(second.error)).toBe(true);
    expect(ModelError.is(third.error) && !ModelTransientError.is(third.error)).toBe(true);
    expect((third.error as Error).message).toContain('Invalid schema for function lookup');
  });

  it('aborts before the headers and mid-stream with CancelledError', async () => {
    const controller = new AbortController();
    server.enqueue(() => {
      controller.abort(new Error('stop'));
      return { chunks: chatChunks({ text: ['never'] }), stallAfter: 0 };
    });
    expect(CancelledError.is((await failure({ ...hello, signal: controller.signal })).error)).toBe(true);
    const mid = new AbortController();
    server.enqueue({ chunks: chatChunks({ text: ['one', 'two'] }), stallAfter: 2 });
    const seen: ModelStreamEvent[] = [];
    const error = await (async () => {
      for await (const e of model.stream({ ...hello, signal: mid.signal })) {
        seen.push(e);
        if ('contentBlockDelta' in e) mid.abort(new Error('user pressed stop'));
      }
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(CancelledError.is(error)).toBe(true);
  });
});
