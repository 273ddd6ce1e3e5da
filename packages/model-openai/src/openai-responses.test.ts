import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CancelledError,
  ContextWindowOverflowError,
  ModelError,
  ModelThrottledError,
  ModelTransientError,
  type ModelRequest,
  type ModelStreamEvent,
} from '@skein/core';
import { OpenAIModel } from './index.js';
import { errorBody, OpenAITestServer, responseEvents, type Chunk } from './testing/index.js';

// OpenAIModel with api: 'responses', through the real openai SDK against the loopback server's POST /v1/responses.

let server: OpenAITestServer;
let model: OpenAIModel;
beforeEach(async () => {
  server = await OpenAITestServer.start();
  model = new OpenAIModel({ modelId: 'gpt-5-mini', baseURL: server.url, api: 'responses' });
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
const deltas = (events: ModelStreamEvent[], index?: number): string =>
  events
    .map((e) => {
      if (!('contentBlockDelta' in e) || (index !== undefined && e.contentBlockDelta.contentBlockIndex !== index))
        return '';
      const d = e.contentBlockDelta.delta;
      return 'text' in d ? d.text : 'toolUse' in d ? d.toolUse.input : '';
    })
    .join('');
const stopOf = (events: ModelStreamEvent[]): unknown => events.find((e) => 'messageStop' in e);

describe('OpenAIModel api: responses, request', () => {
  it('sends instructions, input items, function_call / function_call_output items, tools, tool_choice, stream and store: false', async () => {
    server.enqueue({ chunks: responseEvents({ text: ['ok'] }) });
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
          content: [
            { reasoningContent: { reasoningText: { text: 'hmm' } } },
            { text: 'Looking.' },
            { toolUse: { toolUseId: 'call_1', name: 'lookup', input: { id: '42' } } },
            { toolUse: { toolUseId: 'call_2', name: 'lookup', input: { id: '7' } } },
          ],
        },
        {
          role: 'user',
          content: [
            { toolResult: { toolUseId: 'call_1', status: 'success', content: [{ json: { total: 80 } }] } },
            { toolResult: { toolUseId: 'call_2', status: 'error', content: [{ text: 'no order 7' }] } },
            { text: 'And?' },
          ],
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
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/responses');
    expect(request?.body).toMatchObject({ model: 'gpt-5-mini', stream: true, store: false, instructions: 'Be brief.' });
    expect(request?.body['input']).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look at this' },
          { type: 'input_image', image_url: 'data:image/png;base64,AQID', detail: 'auto' },
        ],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.', annotations: [] }] },
      { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"id":"42"}' },
      { type: 'function_call', call_id: 'call_2', name: 'lookup', arguments: '{"id":"7"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"total":80}' },
      { type: 'function_call_output', call_id: 'call_2', output: 'Error: no order 7' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And?' }] },
    ]);
    expect(request?.body['tools']).toEqual([
      {
        type: 'function',
        name: 'lookup',
        description: 'Looks up.',
        parameters: { type: 'object', properties: { id: { type: 'string' } } },
        strict: false,
      },
    ]);
    expect(request?.body['tool_choice']).toEqual({ type: 'function', name: 'lookup' });
  });

  it('maps auto and any tool choices, sends params (store may be turned on), and refuses params skein sets', async () => {
    server.enqueue({ chunks: responseEvents({ text: ['a'] }) }, { chunks: responseEvents({ text: ['b'] }) });
    model = new OpenAIModel({
      baseURL: server.url,
      api: 'responses',
      params: { max_output_tokens: 100, store: true, reasoning: { effort: 'low' } },
    });
    await collect({
      ...hello,
      toolSpecs: [{ name: 't', description: 'd', inputSchema: { json: { type: 'object' } } }],
      toolChoice: { any: {} },
    });
    await collect({ ...hello, toolChoice: { auto: {} } });
    expect(server.requests.map((r) => r.body['tool_choice'])).toEqual(['required', 'auto']);
    expect(server.requests[0]?.body).toMatchObject({
      max_output_tokens: 100,
      store: true,
      reasoning: { effort: 'low' },
    });
    expect(server.requests[1]?.body).not.toHaveProperty('tools');
    expect(server.requests[1]?.body).not.toHaveProperty('instructions');
    expect(() => new OpenAIModel({ baseURL: server.url, api: 'responses', params: { input: [] } })).toThrow(
      /params cannot set input/,
    );
    expect(
      () => new OpenAIModel({ baseURL: server.url, api: 'responses', params: { previous_response_id: 'resp_1' } }),
    ).toThrow(/params cannot set previous_response_id/);
    expect(() => new OpenAIModel({ baseURL: server.url, api: 'assistants' as 'chat' })).toThrow(
      /api must be 'chat' or 'responses'/,
    );
  });
});

describe('OpenAIModel api: responses, stream', () => {
  it('streams reasoning summary, text, end_turn and usage with cached tokens', async () => {
    server.enqueue({
      chunks: responseEvents({
        reasoning: ['Think', 'ing.'],
        text: ['Hel', 'lo'],
        usage: { input_tokens: 100, output_tokens: 7, cached_tokens: 60 },
      }),
    });
    const events = await collect();
    expect(events[0]).toEqual({ messageStart: { role: 'assistant' } });
    expect(events).toContainEqual({
      contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Think' } } },
    });
    expect(deltas(events, 1)).toBe('Hello');
    expect(events.filter((e) => 'contentBlockStop' in e)).toEqual([
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockStop: { contentBlockIndex: 1 } },
    ]);
    expect(stopOf(events)).toEqual({ messageStop: { stopReason: 'end_turn' } });
    expect(events.at(-1)).toMatchObject({
      metadata: { usage: { inputTokens: 40, outputTokens: 7, totalTokens: 107, cacheReadInputTokens: 60 } },
    });
  });

  it.each([
    ['one after the other', false],
    ['interleaved', true],
  ])(
    'assembles several function calls (%s) whose argument fragments arrive split at every byte',
    async (_how, interleave) => {
      const toolCalls = [
        { callId: 'call_a', name: 'lookup', args: ['{"id"', ':"4', '2"}'] },
        { callId: 'call_b', name: 'refund', args: ['{"amo', 'unt":', '80,"note":"ü€"}'] },
      ];
      server.enqueue({ chunks: responseEvents({ text: ['Doing both.'], toolCalls, interleave }), splitBytes: 1 });
      const events = await collect();
      expect(events.flatMap((e) => ('contentBlockStart' in e ? [e.contentBlockStart] : []))).toEqual([
        { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'call_a', name: 'lookup' } } },
        { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'call_b', name: 'refund' } } },
      ]);
      expect(deltas(events, 0)).toBe('Doing both.');
      expect([deltas(events, 1), deltas(events, 2)]).toEqual(['{"id":"42"}', '{"amount":80,"note":"ü€"}']);
      expect(events.filter((e) => 'contentBlockStop' in e)).toHaveLength(3);
      expect(stopOf(events)).toEqual({ messageStop: { stopReason: 'tool_use' } });
    },
  );

  it('takes items that arrive whole (output_item.done, or arguments only in .done) as a server without deltas sends them', async () => {
    const events: Chunk[] = responseEvents({
      text: ['Hi'],
      toolCalls: [{ callId: 'call_x', name: 'lookup', args: ['{"id":', '"1"}'] }],
    });
    const whole = events.filter(
      (e) =>
        ![
          'response.output_text.delta',
          'response.function_call_arguments.delta',
          'response.output_item.added',
        ].includes(String(e['type'])),
    );
    server.enqueue({ chunks: whole });
    const out = await collect();
    expect(deltas(out, 0)).toBe('Hi');
    expect(out).toContainEqual({
      contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'call_x', name: 'lookup' } } },
    });
    expect(deltas(out, 1)).toBe('{"id":"1"}');
    expect(stopOf(out)).toEqual({ messageStop: { stopReason: 'tool_use' } });
  });

  it.each([
    ['max_output_tokens', 'max_tokens'],
    ['content_filter', 'content_filtered'],
  ] as const)(
    'maps response.incomplete with reason %s to %s, keeping the partial text and usage',
    async (reason, stop) => {
      server.enqueue({
        chunks: responseEvents({
          text: ['Once upon'],
          incomplete: reason,
          usage: { input_tokens: 5, output_tokens: 16 },
        }),
      });
      const events = await collect();
      expect(deltas(events)).toBe('Once upon');
      expect(stopOf(events)).toEqual({ messageStop: { stopReason: stop } });
      expect(events.at(-1)).toMatchObject({
        metadata: { usage: { inputTokens: 5, outputTokens: 16, totalTokens: 21 } },
      });
    },
  );
});

describe('OpenAIModel api: responses, errors', () => {
  it('maps 429 to ModelThrottledError with retry-after, and the SDK does not retry', async () => {
    server.enqueue({
      status: 429,
      body: errorBody('Rate limit reached for gpt-5-mini', 'requests', 'rate_limit_exceeded'),
      headers: { 'retry-after': '2' },
    });
    const { error } = await failure();
    expect(ModelThrottledError.is(error) && error.retryAfterMs === 2000).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('maps 500 to ModelTransientError, context_length_exceeded to ContextWindowOverflowError, 401 to a ModelError naming the variable', async () => {
    server.enqueue(
      { status: 500, body: errorBody('The server had an error while processing your request.', 'server_error') },
      {
        status: 400,
        body: errorBody(
          'Your input exceeds the context window of this model.',
          'invalid_request_error',
          'context_length_exceeded',
        ),
      },
      { status: 401, body: errorBody('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key') },
    );
    expect(ModelTransientError.is((await failure()).error)).toBe(true);
    expect(ContextWindowOverflowError.is((await failure()).error)).toBe(true);
    const { error } = await failure();
    expect(ModelError.is(error) && !ModelTransientError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/Set OPENAI_API_KEY/);
  });

  it('treats a stream cut or closed before response.completed as transient, never a short answer', async () => {
    const events = responseEvents({ text: ['Hello', ' there'] });
    const beforeEnd = events.length - 1;
    server.enqueue({ chunks: events, cutAfter: 5 }, { chunks: events, closeAfter: beforeEnd });
    for (let i = 0; i < 2; i++) {
      const { error, events: seen } = await failure();
      expect(ModelTransientError.is(error)).toBe(true);
      expect(seen.some((e) => 'messageStop' in e)).toBe(false);
    }
  });

  it('maps response.failed and error events by their code: server_error transient, rate_limit_exceeded throttled, context length to the conversation manager, others ModelError', async () => {
    const start = responseEvents({ text: ['x'] }).slice(0, 2);
    const errorEvent = (code: string, message: string): Chunk => ({
      type: 'error',
      code,
      message,
      param: null,
      sequence_number: 2,
    });
    server.enqueue(
      {
        chunks: responseEvents({
          text: ['par'],
          failed: { code: 'server_error', message: 'The model failed to generate a response.' },
        }),
      },
      { chunks: [...start, errorEvent('rate_limit_exceeded', 'Too many requests.')] },
      { chunks: [...start, errorEvent('invalid_prompt', 'Invalid prompt: flagged.')] },
      {
        chunks: [
          ...start,
          errorEvent('context_length_exceeded', 'Your input exceeds the context window of this model.'),
        ],
      },
      // The shape with the error nested under `error` (the SDK throws it itself).
      {
        chunks: [
          ...start,
          {
            type: 'error',
            sequence_number: 2,
            error: { type: 'server_error', code: 'server_error', message: 'Upstream failed.', param: null },
          },
        ],
      },
    );
    const results = [await failure(), await failure(), await failure(), await failure(), await failure()];
    expect(ModelTransientError.is(results[0]?.error)).toBe(true);
    expect((results[0]?.error as Error).message).toContain('The model failed to generate a response');
    expect(ModelThrottledError.is(results[1]?.error)).toBe(true);
    expect(ModelError.is(results[2]?.error) && !ModelTransientError.is(results[2]?.error)).toBe(true);
    expect((results[2]?.error as Error).message).toContain('Invalid prompt: flagged');
    expect(ContextWindowOverflowError.is(results[3]?.error)).toBe(true);
    expect(ModelTransientError.is(results[4]?.error)).toBe(true);
    expect(results.every((r) => !r.events.some((e) => 'messageStop' in e))).toBe(true);
  });

  it('aborts before the headers and mid-stream with CancelledError', async () => {
    const controller = new AbortController();
    server.enqueue(() => {
      controller.abort(new Error('stop'));
      return { chunks: responseEvents({ text: ['never'] }), stallAfter: 0 };
    });
    expect(CancelledError.is((await failure({ ...hello, signal: controller.signal })).error)).toBe(true);
    const mid = new AbortController();
    server.enqueue({ chunks: responseEvents({ text: ['one', 'two'] }), stallAfter: 6 });
    const error = await (async () => {
      for await (const e of model.stream({ ...hello, signal: mid.signal }))
        if ('contentBlockDelta' in e) mid.abort(new Error('user pressed stop'));
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(CancelledError.is(error)).toBe(true);
  });
});
