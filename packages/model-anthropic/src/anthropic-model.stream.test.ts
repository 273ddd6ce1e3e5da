import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest, ModelStreamEvent } from '@skein/core';
import { AnthropicModel } from './index.js';
import { AnthropicTestServer, answerEvents } from './testing/index.js';

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

async function collect(request: ModelRequest = hello): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of model.stream(request)) events.push(event);
  return events;
}

function deltas(events: ModelStreamEvent[]): unknown[] {
  return events.flatMap((e) => ('contentBlockDelta' in e ? [e.contentBlockDelta.delta] : []));
}

describe('AnthropicModel.stream: answers on the wire', () => {
  it('streams a text answer in pieces, with no contentBlockStart for text', async () => {
    server.enqueue({
      events: answerEvents({
        blocks: [{ text: ['Hel', 'lo, ', 'world'] }],
        usage: { input_tokens: 12, output_tokens: 4 },
      }),
    });
    const events = await collect();
    expect(events[0]).toEqual({ messageStart: { role: 'assistant' } });
    expect(events.some((e) => 'contentBlockStart' in e)).toBe(false);
    expect(deltas(events)).toEqual([{ text: 'Hel' }, { text: 'lo, ' }, { text: 'world' }]);
    expect(events).toContainEqual({ contentBlockStop: { contentBlockIndex: 0 } });
    expect(events.at(-2)).toEqual({ messageStop: { stopReason: 'end_turn' } });
    const last = events.at(-1);
    expect(last && 'metadata' in last && last.metadata.usage).toEqual({
      inputTokens: 12,
      outputTokens: 4,
      totalTokens: 16,
      cacheReadInputTokens: 0,
      cacheWriteInputTokens: 0,
    });
    expect(last && 'metadata' in last && last.metadata.metrics?.latencyMs).toBeGreaterThanOrEqual(0);
    const sent = server.requests[0];
    expect(sent?.path).toBe('/v1/messages');
    expect(server.body()).toMatchObject({ model: 'claude-sonnet-5-5', max_tokens: 4096, stream: true });
  });

  it('parses events split at arbitrary byte offsets, multi-byte characters included', async () => {
    server.enqueue({
      events: answerEvents({ blocks: [{ text: ['こんにちは', ' 🌍', ' done'] }] }),
      splitBytes: 11,
      chunkDelayMs: 1,
    });
    const events = await collect();
    expect(deltas(events)).toEqual([{ text: 'こんにちは' }, { text: ' 🌍' }, { text: ' done' }]);
  });

  it('yields each event as it arrives, before the answer is complete', async () => {
    const events = answerEvents({ blocks: [{ text: ['first', 'second'] }] });
    server.enqueue({ events, stallAfter: 4 }); // message_start, ping, block start, first delta; then silence
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    await expect(async () => {
      for await (const event of model.stream({ ...hello, signal: controller.signal })) {
        seen.push(event);
        if ('contentBlockDelta' in event) controller.abort();
      }
    }).rejects.toMatchObject({ code: 'cancelled' });
    expect(deltas(seen)).toEqual([{ text: 'first' }]);
  });

  it('streams a tool call whose JSON arrives split mid-token', async () => {
    const inputChunks = ['{"ci', 'ty": "Pa', 'ris", "da', 'ys": 1', '2}'];
    server.enqueue({
      events: answerEvents({
        blocks: [{ text: ['Let me check.'] }, { toolUse: { id: 'toolu_1', name: 'weather', inputChunks } }],
      }),
    });
    const events = await collect();
    expect(events).toContainEqual({
      contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'toolu_1', name: 'weather' } } },
    });
    const input = deltas(events).flatMap((d) =>
      typeof d === 'object' && d !== null && 'toolUse' in d
        ? [(d as { toolUse: { input: string } }).toolUse.input]
        : [],
    );
    expect(input).toEqual(inputChunks);
    expect(JSON.parse(input.join(''))).toEqual({ city: 'Paris', days: 12 });
    expect(events).toContainEqual({ messageStop: { stopReason: 'tool_use' } });
  });

  it('streams two tool calls in one answer, each under its own block index', async () => {
    server.enqueue({
      events: answerEvents({
        blocks: [
          { toolUse: { id: 'toolu_a', name: 'add', inputChunks: ['{"a":1,', '"b":2}'] } },
          { toolUse: { id: 'toolu_b', name: 'mul', inputChunks: ['{"a":3,"b"', ':4}'] } },
        ],
      }),
    });
    const events = await collect();
    const starts = events.flatMap((e) => ('contentBlockStart' in e ? [e.contentBlockStart] : []));
    expect(starts).toEqual([
      { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'toolu_a', name: 'add' } } },
      { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'toolu_b', name: 'mul' } } },
    ]);
    const byIndex = (i: number): string =>
      events
        .map((e) =>
          'contentBlockDelta' in e &&
          e.contentBlockDelta.contentBlockIndex === i &&
          'toolUse' in e.contentBlockDelta.delta
            ? e.contentBlockDelta.delta.toolUse.input
            : '',
        )
        .join('');
    expect(JSON.parse(byIndex(0))).toEqual({ a: 1, b: 2 });
    expect(JSON.parse(byIndex(1))).toEqual({ a: 3, b: 4 });
  });

  it('streams thinking with its signature, and redacted thinking as bytes', async () => {
    server.enqueue({
      events: answerEvents({
        blocks: [
          { thinking: ['Let me ', 'think.'], signature: 'sig-abc' },
          { redactedThinking: 'ENCRYPTED==' },
          { text: ['42'] },
        ],
      }),
    });
    const events = await collect();
    const d = deltas(events);
    expect(d.slice(0, 3)).toEqual([
      { reasoningContent: { text: 'Let me ' } },
      { reasoningContent: { text: 'think.' } },
      { reasoningContent: { signature: 'sig-abc' } },
    ]);
    const redacted = d[3] as { reasoningContent: { redactedContent: Uint8Array } };
    expect(new TextDecoder().decode(redacted.reasoningContent.redactedContent)).toBe('ENCRYPTED==');
    expect(d[4]).toEqual({ text: '42' });
  });

  it('reports prompt-cache reads and writes in usage', async () => {
    server.enqueue({
      events: answerEvents({
        blocks: [{ text: ['ok'] }],
        usage: { input_tokens: 20, output_tokens: 3, cache_read_input_tokens: 1500, cache_creation_input_tokens: 300 },
      }),
    });
    const meta = (await collect()).at(-1);
    expect(meta && 'metadata' in meta && meta.metadata.usage).toEqual({
      inputTokens: 20,
      outputTokens: 3,
      totalTokens: 1823,
      cacheReadInputTokens: 1500,
      cacheWriteInputTokens: 300,
    });
  });

  it.each([
    ['end_turn', 'end_turn'],
    ['max_tokens', 'max_tokens'],
    ['stop_sequence', 'stop_sequence'],
    ['refusal', 'content_filtered'],
    ['pause_turn', 'end_turn'],
    ['model_context_window_exceeded', 'max_tokens'],
    ['some_new_reason', 'some_new_reason'],
  ])('maps stop reason %s to %s', async (wire, core) => {
    server.enqueue({ events: answerEvents({ blocks: [{ text: ['x'] }], stopReason: wire }) });
    expect(await collect()).toContainEqual({ messageStop: { stopReason: core } });
  });
});
