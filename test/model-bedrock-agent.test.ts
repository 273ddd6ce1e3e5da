import { Agent, tool, type AgentStreamEvent, type AgentResult } from '@skein/core';
import { BedrockModel } from '@skein/model-bedrock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BedrockWireServer,
  textFrames,
  toolUseFrames,
  type WireFrame,
  type WireRequest,
} from '@skein/model-bedrock/testing';

let server: BedrockWireServer;
let model: BedrockModel;
beforeEach(async () => {
  server = await new BedrockWireServer().start();
  model = new BedrockModel({
    region: 'us-east-1',
    clientConfig: { endpoint: server.endpoint, credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' } },
  });
});
afterEach(async () => {
  model.client.destroy();
  await server.close();
});

const start: WireFrame = { event: 'messageStart', body: { role: 'assistant' } };
const usage = (inputTokens: number, cacheReadInputTokens = 0): WireFrame => ({
  event: 'metadata',
  body: {
    usage: { inputTokens, outputTokens: 5, totalTokens: inputTokens + 5, cacheReadInputTokens },
    metrics: { latencyMs: 10 },
  },
});

interface Body {
  messages: { role: string; content: Record<string, unknown>[] }[];
  system?: unknown;
  toolConfig?: {
    tools: { toolSpec: { name: string; inputSchema: { json: Record<string, unknown> } } }[];
    toolChoice?: { tool: { name: string } };
  };
}
const bodyOf = (request: WireRequest | undefined): Body => request?.body as Body;

describe('Agent + BedrockModel against the loopback Bedrock server', () => {
  it('runs a full tool loop, retrying a throttled first response through the core retry strategy', async () => {
    const calls: { city: string; unit: string }[] = [];
    const weather = tool({
      name: 'weather',
      description: 'Current temperature of a city.',
      inputSchema: z.object({ city: z.string(), unit: z.enum(['C', 'F']) }),
      callback: (input) => {
        calls.push(input);
        return { city: input.city, temperature: 21, unit: input.unit };
      },
    });
    server.reply(
      { status: 429, errorType: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' },
      {
        frames: [
          start,
          ...toolUseFrames(0, 'tooluse_w1', 'weather', ['{"ci', 'ty": "Par', 'is", "un', 'it": "C"}']),
          { event: 'messageStop', body: { stopReason: 'tool_use' } },
          usage(100),
        ],
      },
      {
        frames: textFrames(['It is 21', ' °C in Paris.'], {
          inputTokens: 150,
          outputTokens: 8,
          totalTokens: 158,
          cacheReadInputTokens: 90,
        }),
      },
    );
    const agent = new Agent({
      model,
      systemPrompt: 'You report weather.',
      tools: [weather],
      retryStrategy: { initialDelayMs: 1, maxDelayMs: 5 },
    });
    const events: AgentStreamEvent[] = [];
    const stream = agent.stream('Weather in Paris?');
    let next = await stream.next();
    while (!next.done) {
      events.push(next.value);
      next = await stream.next();
    }
    const result: AgentResult = next.value;

    expect(result.stopReason).toBe('end_turn');
    expect(result.toString()).toBe('It is 21 °C in Paris.');
    expect(calls).toEqual([{ city: 'Paris', unit: 'C' }]);
    expect(events.filter((e) => e.type === 'modelRetry')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'textDelta').map((e) => (e as { data: string }).data)).toEqual([
      'It is 21',
      ' °C in Paris.',
    ]);
    expect(result.metrics.usage).toMatchObject({ inputTokens: 250, cacheReadInputTokens: 90 });

    expect(server.requests).toHaveLength(3);
    const first = bodyOf(server.requests[1]);
    expect(first.system).toEqual([{ text: 'You report weather.' }]);
    expect(first.toolConfig?.tools[0]?.toolSpec.name).toBe('weather');
    expect(first.toolConfig?.tools[0]?.toolSpec.inputSchema.json).toMatchObject({
      type: 'object',
      required: ['city', 'unit'],
    });
    const last = bodyOf(server.requests[2]);
    expect(last.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(last.messages[1]?.content).toEqual([
      { toolUse: { toolUseId: 'tooluse_w1', name: 'weather', input: { city: 'Paris', unit: 'C' } } },
    ]);
    expect(last.messages[2]?.content).toEqual([
      {
        toolResult: {
          toolUseId: 'tooluse_w1',
          status: 'success',
          content: [{ json: { city: 'Paris', temperature: 21, unit: 'C' } }],
        },
      },
    ]);
    expect(agent.messages).toHaveLength(4);
  });

  it('gets structured output through a forced tool choice', async () => {
    server.reply((request) => {
      const name = bodyOf(request).toolConfig?.toolChoice?.tool.name ?? 'missing';
      return {
        frames: [
          start,
          ...toolUseFrames(0, 'tooluse_so', name, ['{"name": "Ada", ', '"age": 36}']),
          { event: 'messageStop', body: { stopReason: 'tool_use' } },
          usage(20),
        ],
      };
    });
    const agent = new Agent({ model, retryStrategy: null });
    const person = await agent.structuredOutput(z.object({ name: z.string(), age: z.number() }), 'Ada Lovelace, 36.');
    expect(person).toEqual({ name: 'Ada', age: 36 });
    expect(bodyOf(server.requests[0]).toolConfig?.toolChoice).toEqual({ tool: { name: 'StructuredOutput' } });
  });

  it('ends with stopReason cancelled when the agent is cancelled mid-stream, keeping the history valid', async () => {
    server.reply({ frames: textFrames(['Once upon', ' a time', ' there was']).slice(0, 3), end: 'hang' });
    const agent = new Agent({ model, retryStrategy: null });
    const controller = new AbortController();
    const seen: string[] = [];
    const stream = agent.stream('Tell me a long story.', { signal: controller.signal });
    let next = await stream.next();
    while (!next.done) {
      if (next.value.type === 'textDelta') {
        seen.push(next.value.data);
        controller.abort();
      }
      next = await stream.next();
    }
    expect(next.value.stopReason).toBe('cancelled');
    expect(seen).toEqual(['Once upon']);
    expect(agent.messages.every((m) => m.content.every((b) => !('toolUse' in b)))).toBe(true);
  });
});
