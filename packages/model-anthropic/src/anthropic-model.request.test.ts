import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '@skein/core';
import { AnthropicModel } from './index.js';
import { AnthropicTestServer, answerEvents } from './testing/index.js';

let server: AnthropicTestServer;

beforeEach(async () => {
  server = await AnthropicTestServer.start();
});
afterEach(async () => {
  await server.close();
});

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 128, 7]);
const chart = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const pdf = new TextEncoder().encode('%PDF-1.7 fake');
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

async function send(
  request: ModelRequest,
  model = new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: server.url } }),
): Promise<Record<string, unknown>> {
  server.enqueue({ events: answerEvents({ blocks: [{ text: ['ok'] }] }) });
  for await (const _ of model.stream(request)) void _;
  return server.body();
}

const conversation: Message[] = [
  {
    role: 'user',
    content: [
      { text: 'Here is a photo.' },
      { image: { format: 'png', source: { bytes: png } } },
      { cachePoint: { type: 'default' } },
    ],
  },
  {
    role: 'assistant',
    content: [
      { reasoningContent: { reasoningText: { text: 'I should measure it.', signature: 'sig-1' } } },
      { reasoningContent: { redactedContent: new TextEncoder().encode('opaque-data') } },
      { text: 'Measuring.' },
      { toolUse: { toolUseId: 'tu_1', name: 'measure', input: { what: 'photo' } } },
      { toolUse: { toolUseId: 'tu_2', name: 'plot', input: {} } },
    ],
  },
  {
    role: 'user',
    content: [
      { toolResult: { toolUseId: 'tu_1', status: 'success', content: [{ json: { width: 640, height: 480 } }] } },
      {
        toolResult: {
          toolUseId: 'tu_2',
          status: 'error',
          content: [{ text: 'partial plot' }, { image: { format: 'jpeg', source: { bytes: chart } } }],
        },
      },
    ],
  },
  {
    role: 'user',
    content: [{ text: 'Also read these.' }, { document: { format: 'pdf', name: 'report', source: { bytes: pdf } } }],
  },
  {
    role: 'user',
    content: [
      { document: { format: 'md', name: 'notes', source: { bytes: new TextEncoder().encode('# Notes\n- a') } } },
      { cachePoint: { type: 'default' } },
    ],
  },
];

describe('AnthropicModel request body on the wire', () => {
  it('sends messages, system, tools, tool choice and cache markers as Anthropic expects', async () => {
    const model = new AnthropicModel({
      modelId: 'claude-opus-5-5',
      maxTokens: 1024,
      params: { stop_sequences: ['END'], metadata: { user_id: 'u-1' } },
      clientOptions: { apiKey: 'dummy', baseURL: server.url },
    });
    const body = await send(
      {
        messages: conversation,
        systemPrompt: 'You are a careful analyst.',
        toolSpecs: [
          {
            name: 'measure',
            description: 'Measures a thing',
            inputSchema: { json: { type: 'object', properties: { what: { type: 'string' } }, required: ['what'] } },
          },
          { name: 'plot', description: 'Plots', inputSchema: { json: { type: 'object', properties: {} } } },
        ],
        toolChoice: { tool: { name: 'measure' } },
      },
      model,
    );
    expect(body).toEqual({
      model: 'claude-opus-5-5',
      max_tokens: 1024,
      stop_sequences: ['END'],
      metadata: { user_id: 'u-1' },
      stream: true,
      system: 'You are a careful analyst.',
      tools: [
        {
          name: 'measure',
          description: 'Measures a thing',
          input_schema: { type: 'object', properties: { what: { type: 'string' } }, required: ['what'] },
        },
        { name: 'plot', description: 'Plots', input_schema: { type: 'object', properties: {} } },
      ],
      tool_choice: { type: 'tool', name: 'measure' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here is a photo.' },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: b64(png) },
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'I should measure it.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque-data' },
            { type: 'text', text: 'Measuring.' },
            { type: 'tool_use', id: 'tu_1', name: 'measure', input: { what: 'photo' } },
            { type: 'tool_use', id: 'tu_2', name: 'plot', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'tu_1',
              content: [{ type: 'text', text: '{"width":640,"height":480}' }],
            },
            {
              type: 'tool_result',
              tool_use_id: 'tu_2',
              is_error: true,
              content: [
                { type: 'text', text: 'partial plot' },
                { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: b64(chart) } },
              ],
            },
            { type: 'text', text: 'Also read these.' },
            {
              type: 'document',
              title: 'report',
              source: { type: 'base64', media_type: 'application/pdf', data: b64(pdf) },
            },
            {
              type: 'document',
              title: 'notes',
              source: { type: 'text', media_type: 'text/plain', data: '# Notes\n- a' },
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
      ],
    });
  });

  it('round-trips image bytes exactly', async () => {
    const bytes = new Uint8Array(4096).map((_, i) => (i * 31) % 256);
    const body = await send({
      messages: [
        { role: 'user', content: [{ image: { format: 'webp', source: { bytes: bytes.subarray(100, 3000) } } }] },
      ],
    });
    const messages = body['messages'] as { content: { source: { data: string; media_type: string } }[] }[];
    const source = messages[0]?.content[0]?.source;
    expect(source?.media_type).toBe('image/webp');
    expect(new Uint8Array(Buffer.from(source?.data ?? '', 'base64'))).toEqual(bytes.subarray(100, 3000));
  });

  it('maps auto and any tool choice, and omits tool fields without tools', async () => {
    const spec = { name: 't', description: 'd', inputSchema: { json: { type: 'object' } } };
    const user: Message[] = [{ role: 'user', content: [{ text: 'hi' }] }];
    expect((await send({ messages: user, toolSpecs: [spec], toolChoice: { auto: {} } }))['tool_choice']).toEqual({
      type: 'auto',
    });
    expect((await send({ messages: user, toolSpecs: [spec], toolChoice: { any: {} } }))['tool_choice']).toEqual({
      type: 'any',
    });
    const bare = await send({ messages: user, systemPrompt: '' });
    expect(Object.keys(bare).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream']);
  });

  it('puts tool results first when merged user turns would start with text', async () => {
    const body = await send({
      messages: [
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'x', name: 't', input: {} } }] },
        { role: 'user', content: [{ text: 'note first' }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'x', status: 'success', content: [{ text: '' }] } }] },
      ],
    });
    expect((body['messages'] as unknown[])[1]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'x' },
        { type: 'text', text: 'note first' },
      ],
    });
  });

  it('drops what Anthropic would reject: empty text, reasoning without a signature, empty messages', async () => {
    const body = await send({
      messages: [
        { role: 'user', content: [{ text: 'q' }] },
        {
          role: 'assistant',
          content: [{ reasoningContent: { reasoningText: { text: 'from another provider' } } }, { text: '' }],
        },
        { role: 'assistant', content: [{ text: 'a' }] },
        { role: 'user', content: [{ cachePoint: { type: 'default' } }, { text: 'next' }] },
      ],
    });
    expect(body['messages']).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ]);
  });

  it('rejects documents Anthropic cannot read, before sending', async () => {
    const model = new AnthropicModel({ clientOptions: { apiKey: 'dummy', baseURL: server.url } });
    const request: ModelRequest = {
      messages: [{ role: 'user', content: [{ document: { format: 'docx', name: 'plan', source: { bytes: pdf } } }] }],
    };
    await expect(async () => {
      for await (const _ of model.stream(request)) void _;
    }).rejects.toThrow(/cannot read the docx document "plan"/);
    expect(server.requests).toHaveLength(0);
  });
});
