import type { Message, ModelRequest } from '@skein/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ask, collect, startHarness, type Harness } from './testing/harness.js';
import { textFrames } from './testing/bedrock-wire-server.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
  h.server.reply({ frames: textFrames(['ok']) });
});
afterEach(async () => {
  await h.close();
});

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 7, 7]);
const pdf = new TextEncoder().encode('%PDF-1.7 tiny');
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

const conversation: Message[] = [
  {
    role: 'user',
    content: [
      { text: 'What is in this picture, and how heavy is it?' },
      { image: { format: 'png', source: { bytes: png } } },
      { cachePoint: { type: 'default' } },
    ],
  },
  {
    role: 'assistant',
    content: [
      { reasoningContent: { reasoningText: { text: 'A cat. Weigh it.', signature: 'sig-1' } } },
      { text: 'Let me weigh it.' },
      { toolUse: { toolUseId: 't1', name: 'weigh', input: { item: 'cat' } } },
    ],
  },
  {
    role: 'user',
    content: [
      {
        toolResult: {
          toolUseId: 't1',
          status: 'success',
          content: [
            { json: { kg: 4.2 } },
            { text: 'measured' },
            { image: { format: 'jpeg', source: { bytes: jpeg } } },
          ],
        },
      },
    ],
  },
  {
    role: 'user',
    content: [
      { text: 'Also check this report.' },
      { document: { format: 'pdf', name: 'report', source: { bytes: pdf } } },
    ],
  },
  { role: 'assistant', content: [{ toolUse: { toolUseId: 't2', name: 'weigh', input: { item: 'report' } } }] },
  {
    role: 'user',
    content: [
      {
        toolResult: {
          toolUseId: 't2',
          status: 'error',
          content: [{ text: 'scale broken' }, { document: { format: 'txt', name: 'log', source: { bytes: pdf } } }],
        },
      },
    ],
  },
];

const request: ModelRequest = {
  messages: conversation,
  systemPrompt: 'You are a vet.',
  toolSpecs: [
    {
      name: 'weigh',
      description: 'Weighs an item.',
      inputSchema: { json: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] } },
    },
  ],
  toolChoice: { tool: { name: 'weigh' } },
};

describe('BedrockModel request body on the wire', () => {
  it('sends messages (merged by role), system prompt, tools, tool choice, cache points and inference config', async () => {
    const model = h.model({
      modelId: 'anthropic.claude-3-5-haiku-20241022-v1:0',
      cachePrompt: 'default',
      cacheTools: 'default',
      params: {
        maxTokens: 512,
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ['END'],
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      },
    });
    await collect(model, request);
    const received = h.server.requests[0];
    expect(received?.path).toBe('/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse-stream');
    expect(received?.body).toEqual({
      messages: [
        {
          role: 'user',
          content: [
            { text: 'What is in this picture, and how heavy is it?' },
            { image: { format: 'png', source: { bytes: b64(png) } } },
            { cachePoint: { type: 'default' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { reasoningContent: { reasoningText: { text: 'A cat. Weigh it.', signature: 'sig-1' } } },
            { text: 'Let me weigh it.' },
            { toolUse: { toolUseId: 't1', name: 'weigh', input: { item: 'cat' } } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              toolResult: {
                toolUseId: 't1',
                status: 'success',
                content: [
                  { json: { kg: 4.2 } },
                  { text: 'measured' },
                  { image: { format: 'jpeg', source: { bytes: b64(jpeg) } } },
                ],
              },
            },
            { text: 'Also check this report.' },
            { document: { format: 'pdf', name: 'report', source: { bytes: b64(pdf) } } },
          ],
        },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't2', name: 'weigh', input: { item: 'report' } } }] },
        {
          role: 'user',
          content: [
            {
              toolResult: {
                toolUseId: 't2',
                status: 'error',
                content: [
                  { text: 'scale broken' },
                  { document: { format: 'txt', name: 'log', source: { bytes: b64(pdf) } } },
                ],
              },
            },
          ],
        },
      ],
      system: [{ text: 'You are a vet.' }, { cachePoint: { type: 'default' } }],
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: 'weigh',
              description: 'Weighs an item.',
              inputSchema: { json: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] } },
            },
          },
          { cachePoint: { type: 'default' } },
        ],
        toolChoice: { tool: { name: 'weigh' } },
      },
      inferenceConfig: { maxTokens: 512, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
    });
  });

  it('round-trips image bytes of every value, in a message and in a tool result', async () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    const messages: Message[] = [
      { role: 'user', content: [{ image: { format: 'webp', source: { bytes } } }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'x', name: 'snap', input: {} } }] },
      {
        role: 'user',
        content: [
          {
            toolResult: {
              toolUseId: 'x',
              status: 'success',
              content: [{ image: { format: 'gif', source: { bytes } } }],
            },
          },
        ],
      },
    ];
    await collect(h.model(), {
      messages,
      toolSpecs: [{ name: 'snap', description: 'Takes a picture.', inputSchema: { json: { type: 'object' } } }],
    });
    const body = h.server.requests[0]?.body as {
      messages: {
        content: Record<string, { source?: { bytes: string }; content?: { image: { source: { bytes: string } } }[] }>[];
      }[];
    };
    const direct = body.messages[0]?.content[0]?.['image']?.source?.bytes ?? '';
    const inResult = body.messages[2]?.content[0]?.['toolResult']?.content?.[0]?.image.source.bytes ?? '';
    expect(new Uint8Array(Buffer.from(direct, 'base64'))).toEqual(bytes);
    expect(new Uint8Array(Buffer.from(inResult, 'base64'))).toEqual(bytes);
  });

  it('sends no system, toolConfig or inferenceConfig when there are none, and auto / any tool choice as given', async () => {
    h.server.reply({ frames: textFrames(['ok']) }, { frames: textFrames(['ok']) });
    await collect(h.model(), ask('hi'));
    expect(Object.keys(h.server.requests[0]?.body as object)).toEqual(['messages']);
    const toolSpecs = request.toolSpecs ?? [];
    await collect(h.model(), ask('hi', { toolSpecs, toolChoice: { auto: {} } }));
    await collect(h.model(), ask('hi', { toolSpecs, toolChoice: { any: {} } }));
    expect((h.server.requests[1]?.body as { toolConfig: { toolChoice: unknown } }).toolConfig.toolChoice).toEqual({
      auto: {},
    });
    expect((h.server.requests[2]?.body as { toolConfig: { toolChoice: unknown } }).toolConfig.toolChoice).toEqual({
      any: {},
    });
  });

  it('sends redacted reasoning back as bytes', async () => {
    const messages: Message[] = [
      { role: 'user', content: [{ text: 'q' }] },
      {
        role: 'assistant',
        content: [{ reasoningContent: { redactedContent: new Uint8Array([9, 8, 7]) } }, { text: 'a' }],
      },
      { role: 'user', content: [{ text: 'q2' }] },
    ];
    await collect(h.model(), { messages });
    const body = h.server.requests[0]?.body as { messages: { content: unknown[] }[] };
    expect(body.messages[1]?.content[0]).toEqual({
      reasoningContent: { redactedContent: b64(new Uint8Array([9, 8, 7])) },
    });
  });

  it('renders tool blocks as text when the request has no tool specs (Converse needs toolConfig for them)', async () => {
    await collect(h.model(), { messages: conversation.slice(0, 3), systemPrompt: 'Summarize.' });
    const body = h.server.requests[0]?.body as {
      messages: { role: string; content: unknown[] }[];
      toolConfig?: unknown;
    };
    expect(body.toolConfig).toBeUndefined();
    expect(body.messages[1]?.content.at(-1)).toEqual({ text: '[tool call weigh (t1) with input {"item":"cat"}]' });
    expect(body.messages[2]?.content).toEqual([
      { text: '[tool result of t1 (success)]' },
      { text: '{"kg":4.2}' },
      { text: 'measured' },
      { image: { format: 'jpeg', source: { bytes: b64(jpeg) } } },
    ]);
  });
});
