import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, BeforeModelCallEvent, BeforeToolCallEvent, ModelThrottledError, tool } from '@skein/core';
import { listenerDispatchCount, ScriptedModel } from '@skein/core/testing';
import { instrument } from './index.js';
import { harness, only, recordings, total, tree } from './test-support/harness.js';

const lookup = tool({
  name: 'lookup',
  description: 'Looks up an order.',
  inputSchema: z.object({ id: z.string() }),
  callback: ({ id }) => `order ${id} shipped`,
});
const refund = tool({
  name: 'refund',
  description: 'Refunds an order.',
  inputSchema: z.object({ id: z.string() }),
  callback: () => {
    throw new Error('payments are down');
  },
});

describe('an instrumented agent', () => {
  it('has one invoke_agent span with a chat span per model call and an execute_tool span per tool use', async () => {
    const h = harness();
    const model = new ScriptedModel(
      [
        {
          text: 'Looking.',
          toolUses: [{ name: 'lookup', input: { id: '42' }, toolUseId: 't1' }],
          usage: { inputTokens: 100, outputTokens: 20, cacheReadInputTokens: 60, cacheWriteInputTokens: 5 },
        },
        { text: 'Order 42 shipped.', usage: { inputTokens: 150, outputTokens: 10 } },
      ],
      { modelId: 'claude-test' },
    );
    const agent = new Agent({
      name: 'support',
      id: 'support-1',
      description: 'Answers customers.',
      model,
      tools: [lookup],
    });
    instrument(agent, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider });
    await agent.invoke('Where is order 42?');

    const spans = h.spans();
    expect(tree(spans)).toBe(
      ['invoke_agent support', '  chat claude-test', '  chat claude-test', '  execute_tool lookup'].join('\n'),
    );
    const run = only(spans, 'invoke_agent support');
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'support',
      'gen_ai.agent.id': 'support-1',
      'gen_ai.agent.description': 'Answers customers.',
      'gen_ai.provider.name': 'skein.scripted',
      'gen_ai.request.model': 'claude-test',
      'gen_ai.usage.input_tokens': 250,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.usage.cache_read.input_tokens': 60,
      'gen_ai.usage.cache_creation.input_tokens': 5,
      'gen_ai.response.finish_reasons': ['end_turn'],
      'skein.agent.cycles': 2,
    });
    const [first, second] = spans
      .filter((s) => s.name === 'chat claude-test')
      .sort((a, b) => a.startTime[1] - b.startTime[1] + (a.startTime[0] - b.startTime[0]) * 1e9);
    expect(first?.kind).toBe(SpanKind.CLIENT);
    expect(first?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'claude-test',
      'gen_ai.response.finish_reasons': ['tool_use'],
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.usage.cache_read.input_tokens': 60,
    });
    expect(first?.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThanOrEqual(0);
    expect(second?.attributes['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
    const toolSpan = only(spans, 'execute_tool lookup');
    expect(toolSpan.attributes).toMatchObject({
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 't1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Looks up an order.',
    });
    expect(toolSpan.status.code).toBe(SpanStatusCode.UNSET);
    // No content unless asked for.
    for (const s of spans)
      expect(Object.keys(s.attributes).filter((k) => /messages|arguments|result|instructions/.test(k))).toEqual([]);

    const metrics = await h.metrics();
    expect(
      total(metrics.get('gen_ai.client.token.usage'), {
        'gen_ai.token.type': 'input',
        'gen_ai.operation.name': 'chat',
      }),
    ).toBe(250);
    expect(total(metrics.get('gen_ai.client.token.usage'), { 'gen_ai.token.type': 'output' })).toBe(30);
    expect(recordings(metrics.get('gen_ai.client.operation.duration'), { 'gen_ai.operation.name': 'chat' })).toBe(2);
    expect(
      recordings(metrics.get('gen_ai.client.operation.duration'), { 'gen_ai.operation.name': 'invoke_agent' }),
    ).toBe(1);
    expect(recordings(metrics.get('gen_ai.client.operation.time_to_first_chunk'))).toBe(2);
    expect(total(metrics.get('skein.tool.calls'), { 'gen_ai.tool.name': 'lookup' })).toBe(1);
    expect(total(metrics.get('skein.tool.errors'))).toBe(0);
    expect(recordings(metrics.get('skein.tool.duration'))).toBe(1);
    expect(total(metrics.get('skein.agent.cycles'), { 'gen_ai.agent.name': 'support' })).toBe(2);
  });

  it('marks a failing tool as an error span and counts it', async () => {
    const h = harness();
    const agent = new Agent({
      name: 'support',
      model: new ScriptedModel([{ toolUses: [{ name: 'refund', input: { id: '42' } }] }, 'Sorry, refunds are down.']),
      tools: [refund],
    });
    instrument(agent, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider });
    await agent.invoke('Refund 42');
    const span = only(h.spans(), 'execute_tool refund');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'payments are down' });
    expect(span.attributes['error.type']).toBe('Error');
    expect(only(h.spans(), 'invoke_agent support').status.code).toBe(SpanStatusCode.UNSET);
    const metrics = await h.metrics();
    expect(total(metrics.get('skein.tool.errors'), { 'gen_ai.tool.name': 'refund', 'error.type': 'Error' })).toBe(1);
    expect(total(metrics.get('skein.tool.calls'), { 'gen_ai.tool.name': 'refund' })).toBe(1);
  });

  it('shows a retried throttled model call as a failed chat span, a retry event and a second chat span', async () => {
    const h = harness();
    const model = new ScriptedModel(
      [{ error: new ModelThrottledError('Too many requests', { retryAfterMs: 1 }) }, 'Here you go.'],
      { modelId: 'm' },
    );
    const agent = new Agent({ name: 'support', model, retryStrategy: { initialDelayMs: 1, maxDelayMs: 1 } });
    instrument(agent, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider });
    await agent.invoke('hi');
    const spans = h.spans();
    expect(tree(spans)).toBe(['invoke_agent support', '  chat m', '  chat m'].join('\n'));
    const chats = spans.filter((s) => s.name === 'chat m');
    const failed = chats.find((s) => s.status.code === SpanStatusCode.ERROR);
    expect(failed?.attributes['error.type']).toBe('model_throttled');
    expect(failed?.status.message).toBe('Too many requests');
    expect(chats.filter((s) => s.status.code !== SpanStatusCode.ERROR)).toHaveLength(1);
    const run = only(spans, 'invoke_agent support');
    const retry = run.events.find((e) => e.name === 'skein.model.retry');
    expect(retry?.attributes).toMatchObject({
      'skein.retry.attempt': 1,
      'error.type': 'model_throttled',
      'skein.retry.discarded_partial_answer': false,
    });
    expect(run.attributes['skein.agent.cycles']).toBe(1);
    const metrics = await h.metrics();
    expect(
      recordings(metrics.get('gen_ai.client.operation.duration'), {
        'gen_ai.operation.name': 'chat',
        'error.type': 'model_throttled',
      }),
    ).toBe(1);
    expect(recordings(metrics.get('gen_ai.client.operation.duration'), { 'gen_ai.operation.name': 'chat' })).toBe(2);
  });

  it('nests an agent used as a tool under the execute_tool span that runs it', async () => {
    const h = harness();
    const expert = new Agent({
      name: 'expert',
      model: new ScriptedModel([{ toolUses: [{ name: 'lookup', input: { id: '7' } }] }, 'Order 7 shipped.']),
      tools: [lookup],
    });
    const lead = new Agent({
      name: 'lead',
      model: new ScriptedModel([
        { toolUses: [{ name: 'ask_expert', input: { input: 'order 7?' } }] },
        'The expert says it shipped.',
      ]),
      tools: [expert.asTool({ name: 'ask_expert' })],
    });
    instrument(lead, { tracerProvider: h.tracerProvider, meterProvider: h.meterProvider });
    await lead.invoke('What about order 7?');
    expect(tree(h.spans())).toBe(
      [
        'invoke_agent lead',
        '  chat scripted',
        '  chat scripted',
        '  execute_tool ask_expert',
        '    invoke_agent expert',
        '      chat scripted',
        '      chat scripted',
        '      execute_tool lookup',
      ].join('\n'),
    );
    const traceIds = new Set(h.spans().map((s) => s.spanContext().traceId));
    expect(traceIds.size).toBe(1);
  });

  it('records message content only when asked to, and stops when uninstrumented', async () => {
    const h = harness();
    const agent = new Agent({
      name: 'support',
      systemPrompt: 'Be brief.',
      model: new ScriptedModel([{ toolUses: [{ name: 'lookup', input: { id: '42' } }] }, 'Shipped.', 'Again.']),
      tools: [lookup],
    });
    const uninstrument = instrument(agent, {
      tracerProvider: h.tracerProvider,
      meterProvider: h.meterProvider,
      captureMessageContent: true,
      conversationId: 'conv-1',
    });
    await agent.invoke('Where is 42?');
    const chat = h
      .spans()
      .find(
        (s) => s.name === 'chat scripted' && s.attributes['gen_ai.response.finish_reasons']?.toString() === 'tool_use',
      );
    expect(JSON.parse(String(chat?.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Where is 42?' }] },
    ]);
    expect(JSON.parse(String(chat?.attributes['gen_ai.output.messages']))[0]).toMatchObject({
      role: 'assistant',
      finish_reason: 'tool_use',
      parts: [{ type: 'tool_call', name: 'lookup', arguments: { id: '42' } }],
    });
    expect(JSON.parse(String(chat?.attributes['gen_ai.system_instructions']))).toEqual([
      { type: 'text', content: 'Be brief.' },
    ]);
    const toolSpan = only(h.spans(), 'execute_tool lookup');
    expect(toolSpan.attributes['gen_ai.tool.call.arguments']).toBe('{"id":"42"}');
    expect(toolSpan.attributes['gen_ai.tool.call.result']).toBe('["order 42 shipped"]');
    for (const s of h.spans()) expect(s.attributes['gen_ai.conversation.id']).toBe('conv-1');
    uninstrument();
    const before = h.spans().length;
    await agent.invoke('And now?');
    expect(h.spans().length).toBe(before);
  });

  it('does no per-cycle work when nothing collects (no tracer or meter provider registered)', async () => {
    const seen: boolean[] = [];
    const probe = tool({
      name: 'probe',
      description: 'Reports whether model and tool hooks are registered while the loop runs.',
      inputSchema: z.object({}),
      callback: (_input, context) => {
        seen.push(context.agent.hooks.has(BeforeModelCallEvent), context.agent.hooks.has(BeforeToolCallEvent));
        return 'ok';
      },
    });
    const agent = new Agent({
      name: 'support',
      model: new ScriptedModel([{ toolUses: [{ name: 'probe', input: {} }] }, 'Done.']),
      tools: [probe],
    });
    instrument(agent);
    const before = listenerDispatchCount();
    await agent.invoke('go');
    expect(seen).toEqual([false, false]);
    expect(listenerDispatchCount()).toBe(before);
    // With a provider, the same agent gets them for the invocation, and drops them after.
    const h = harness();
    const traced = new Agent({
      name: 'traced',
      model: new ScriptedModel([{ toolUses: [{ name: 'probe', input: {} }] }, 'Done.']),
      tools: [probe],
    });
    instrument(traced, { tracerProvider: h.tracerProvider });
    await traced.invoke('go');
    expect(seen).toEqual([false, false, true, true]);
    expect(traced.hooks.has(BeforeModelCallEvent)).toBe(false);
    expect(listenerDispatchCount()).toBeGreaterThan(before);
  });
});
