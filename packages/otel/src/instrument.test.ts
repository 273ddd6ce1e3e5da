import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  ConfigurationError,
  InMemorySessionRepository,
  RepositorySessionManager,
  tool,
  type MultiAgentBase,
  type SessionMultiAgent,
} from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { instrument } from './index.js';
import { harness, only } from './test-support/harness.js';

describe('instrument()', () => {
  it('rejects what it cannot instrument, saying what it takes', () => {
    const bare: MultiAgentBase = {
      id: 'bare',
      kind: 'multiAgent',
      invoke: () => Promise.reject(new Error('unused')),
      stream: () => {
        throw new Error('unused');
      },
    };
    expect(() => instrument(bare)).toThrow(ConfigurationError);
    expect(() => instrument(bare)).toThrow(/Give it an Agent, a Graph, a Swarm/);
  });

  it('does not double the spans of an object instrumented twice, and instruments it again after the first undo', async () => {
    const h = harness();
    const agent = new Agent({ name: 'a', model: new ScriptedModel(['one', 'two', 'three']) });
    const options = { tracerProvider: h.tracerProvider };
    const first = instrument(agent, options);
    const second = instrument(agent, options);
    await agent.invoke('go');
    expect(h.spans().filter((s) => s.name === 'invoke_agent a')).toHaveLength(1);
    second();
    first();
    const third = instrument(agent, options);
    await agent.invoke('go');
    expect(h.spans().filter((s) => s.name === 'invoke_agent a')).toHaveLength(2);
    third();
  });

  it('records content when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true', async () => {
    const h = harness();
    const before = process.env['OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT'];
    process.env['OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT'] = 'true';
    try {
      const agent = new Agent({ name: 'a', model: new ScriptedModel(['Hello there.']) });
      instrument(agent, { tracerProvider: h.tracerProvider });
      await agent.invoke('hi');
    } finally {
      if (before === undefined) delete process.env['OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT'];
      else process.env['OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT'] = before;
    }
    const run = only(h.spans(), 'invoke_agent a');
    expect(JSON.parse(String(run.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', finish_reason: 'end_turn', parts: [{ type: 'text', content: 'Hello there.' }] },
    ]);
  });

  it('marks a pause for approval and the resume that answers it as span events', async () => {
    const h = harness();
    const refund = tool({
      name: 'refund',
      description: 'Refunds.',
      inputSchema: z.object({}),
      needsApproval: true,
      callback: () => 'refunded',
    });
    const agent = new Agent({
      name: 'desk',
      model: new ScriptedModel([{ toolUses: [{ name: 'refund', input: {} }] }, 'Refunded.']),
      tools: [refund],
    });
    instrument(agent, { tracerProvider: h.tracerProvider });
    const paused = await agent.invoke('refund me');
    expect(paused.stopReason).toBe('interrupt');
    const [pending] = paused.interrupts;
    await agent.invoke([{ interruptResponse: { interruptId: pending?.id as string, response: { approved: true } } }]);
    const [first, second] = h.spans().filter((s) => s.name === 'invoke_agent desk');
    expect(first?.events.map((e) => e.name)).toEqual(['skein.interrupt']);
    expect(first?.events[0]?.attributes?.['skein.interrupt.names']).toEqual(['approval']);
    expect(first?.attributes['gen_ai.response.finish_reasons']).toEqual(['interrupt']);
    expect(second?.events.map((e) => e.name)).toEqual(['skein.resume']);
    expect(second?.attributes['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
    // The use that waited (ended when its invocation paused), then the one that ran after the answer.
    const tools = h.spans().filter((s) => s.name === 'execute_tool refund');
    expect(tools.map((s) => [s.status.code, s.events.map((e) => e.name)])).toEqual([
      [SpanStatusCode.UNSET, ['skein.interrupt']],
      [SpanStatusCode.UNSET, []],
    ]);
    expect(tools[1]?.parentSpanContext?.spanId).toBe(second?.spanContext().spanId);
  });

  it('ends a graph run that throws (its session fails) with the error', async () => {
    const h = harness();
    class FailingRepository extends InMemorySessionRepository {
      override async createMultiAgent(_sessionId: string, _doc: SessionMultiAgent): Promise<void> {
        throw new Error('disk full');
      }
    }
    const graph = new GraphBuilder()
      .setId('g')
      .setSessionManager(new RepositorySessionManager({ sessionId: 's', repository: new FailingRepository() }))
      .addNode(new Agent({ name: 'a', model: new ScriptedModel(['A']) }), 'a')
      .build();
    instrument(graph, { tracerProvider: h.tracerProvider });
    await expect(graph.invoke('go')).rejects.toThrow('disk full');
    const run = only(h.spans(), 'invoke_workflow g');
    expect(run.status).toEqual({ code: SpanStatusCode.ERROR, message: 'disk full' });
    expect(run.attributes['error.type']).toBe('Error');
  });
});
