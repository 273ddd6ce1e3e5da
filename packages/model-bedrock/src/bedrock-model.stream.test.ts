import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ask, collect, startHarness, type Harness } from './testing/harness.js';
import { textFrames, toolUseFrames, type WireFrame } from './testing/bedrock-wire-server.js';
import { DEFAULT_BEDROCK_MODEL_ID } from './index.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const start: WireFrame = { event: 'messageStart', body: { role: 'assistant' } };
const stop = (stopReason: string): WireFrame => ({ event: 'messageStop', body: { stopReason } });
const metadata: WireFrame = {
  event: 'metadata',
  body: { usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 }, metrics: { latencyMs: 9 } },
};

describe('BedrockModel streaming (ConverseStream on the wire)', () => {
  it('streams a text answer in pieces, one core event per frame, and calls the right path', async () => {
    h.server.reply({
      frames: textFrames(['Hel', 'lo, ', 'world'], { inputTokens: 12, outputTokens: 3, totalTokens: 15 }),
    });
    const events = await collect(h.model(), ask('hi'));
    expect(events).toEqual([
      { messageStart: { role: 'assistant' } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Hel' } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'lo, ' } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'world' } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: 'end_turn' } },
      { metadata: { usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 }, metrics: { latencyMs: 42 } } },
    ]);
    const [request] = h.server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/model/${encodeURIComponent(DEFAULT_BEDROCK_MODEL_ID)}/converse-stream`);
    expect(request?.path).toContain('%3A0');
    expect(request?.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\//);
  });

  it('passes a tool call whose JSON input is split mid-token through unchanged', async () => {
    const pieces = ['{"expr', 'ession": "25 ', '* 4', '8", "pre', 'cision":', ' 2}'];
    h.server.reply({
      frames: [start, ...toolUseFrames(0, 'tooluse_1', 'calculator', pieces), stop('tool_use'), metadata],
    });
    const events = await collect(h.model(), ask('compute'));
    expect(events[1]).toEqual({
      contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'tooluse_1', name: 'calculator' } } },
    });
    const input = events.flatMap((e) =>
      'contentBlockDelta' in e && 'toolUse' in e.contentBlockDelta.delta
        ? [e.contentBlockDelta.delta.toolUse.input]
        : [],
    );
    expect(input).toEqual(pieces);
    expect(JSON.parse(input.join(''))).toEqual({ expression: '25 * 48', precision: 2 });
    expect(events.at(-2)).toEqual({ messageStop: { stopReason: 'tool_use' } });
  });

  it('streams two tool calls after some text in one answer', async () => {
    h.server.reply({
      frames: [
        start,
        { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { text: 'Checking both.' } } },
        { event: 'contentBlockStop', body: { contentBlockIndex: 0 } },
        ...toolUseFrames(1, 'tu_a', 'weather', ['{"city":', '"Paris"}']),
        ...toolUseFrames(2, 'tu_b', 'weather', ['{"ci', 'ty":"Oslo"}']),
        stop('tool_use'),
        metadata,
      ],
    });
    const events = await collect(h.model(), ask('weather?'));
    const starts = events.flatMap((e) => ('contentBlockStart' in e ? [e.contentBlockStart] : []));
    expect(starts).toEqual([
      { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tu_a', name: 'weather' } } },
      { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tu_b', name: 'weather' } } },
    ]);
    const inputOf = (index: number): string =>
      events
        .map((e) =>
          'contentBlockDelta' in e &&
          e.contentBlockDelta.contentBlockIndex === index &&
          'toolUse' in e.contentBlockDelta.delta
            ? e.contentBlockDelta.delta.toolUse.input
            : '',
        )
        .join('');
    expect(JSON.parse(inputOf(1))).toEqual({ city: 'Paris' });
    expect(JSON.parse(inputOf(2))).toEqual({ city: 'Oslo' });
  });

  it('streams reasoning text, its signature and redacted reasoning', async () => {
    h.server.reply({
      frames: [
        start,
        {
          event: 'contentBlockDelta',
          body: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Let me ' } } },
        },
        { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'think.' } } } },
        {
          event: 'contentBlockDelta',
          body: { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-abc==' } } },
        },
        { event: 'contentBlockStop', body: { contentBlockIndex: 0 } },
        {
          event: 'contentBlockDelta',
          body: {
            contentBlockIndex: 1,
            delta: { reasoningContent: { redactedContent: Buffer.from([1, 2, 3]).toString('base64') } },
          },
        },
        { event: 'contentBlockStop', body: { contentBlockIndex: 1 } },
        { event: 'contentBlockDelta', body: { contentBlockIndex: 2, delta: { text: '42' } } },
        { event: 'contentBlockStop', body: { contentBlockIndex: 2 } },
        stop('end_turn'),
        metadata,
      ],
    });
    const events = await collect(h.model(), ask('think'));
    expect(events.slice(1, 5)).toEqual([
      { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Let me ' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'think.' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-abc==' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
    ]);
    const redacted = events[5];
    expect(redacted && 'contentBlockDelta' in redacted && redacted.contentBlockDelta.delta).toEqual({
      reasoningContent: { redactedContent: new Uint8Array([1, 2, 3]) },
    });
  });

  it('reports cache read and write tokens and latency in usage metadata', async () => {
    const usage = {
      inputTokens: 20,
      outputTokens: 2,
      totalTokens: 1522,
      cacheReadInputTokens: 1000,
      cacheWriteInputTokens: 500,
    };
    h.server.reply({ frames: textFrames(['ok'], usage) });
    const events = await collect(h.model({ cachePrompt: 'default' }), ask('hi', { systemPrompt: 'long prompt' }));
    expect(events.at(-1)).toEqual({ metadata: { usage, metrics: { latencyMs: 42 } } });
  });

  it('surfaces a guardrail intervention as stopReason guardrail_intervened and sends the guardrail config', async () => {
    h.server.reply({
      frames: [
        start,
        { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { text: 'Sorry, I cannot help.' } } },
        { event: 'contentBlockStop', body: { contentBlockIndex: 0 } },
        stop('guardrail_intervened'),
        {
          event: 'metadata',
          body: {
            usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
            metrics: { latencyMs: 1 },
            trace: { guardrail: {} },
          },
        },
      ],
    });
    const model = h.model({ guardrail: { guardrailIdentifier: 'gr-1', guardrailVersion: '2', trace: 'enabled' } });
    const events = await collect(model, ask('something bad'));
    expect(events).toContainEqual({ messageStop: { stopReason: 'guardrail_intervened' } });
    expect((h.server.requests[0]?.body as { guardrailConfig: unknown }).guardrailConfig).toEqual({
      guardrailIdentifier: 'gr-1',
      guardrailVersion: '2',
      trace: 'enabled',
    });
  });

  it('skips events core has no place for (unknown event types, citations)', async () => {
    h.server.reply({
      frames: [
        start,
        { event: 'someFutureEvent', body: { x: 1 } },
        { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { citation: { title: 'doc' } } } },
        { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { text: 'hi' } } },
        { event: 'contentBlockStop', body: { contentBlockIndex: 0 } },
        stop('end_turn'),
        metadata,
      ],
    });
    const events = await collect(h.model(), ask('hi'));
    expect(events.map((e) => Object.keys(e)[0])).toEqual([
      'messageStart',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
  });
});
