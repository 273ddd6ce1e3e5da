import { afterAll, describe, expect, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Agent } from '@skein/core';
import { instrument } from '@skein/otel';
import { createServer } from '../index.js';
import { echoModel, memorySessions, post } from '../test-support/server-fixtures.js';
import { parseTraceParent } from './trace-parent.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('traceparent', () => {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  afterAll(() => {
    context.disable();
    trace.disable();
  });

  it('parses W3C trace context and refuses what is not one', () => {
    expect(parseTraceParent(`00-${TRACE}-${SPAN}-01`, 'vendor=x')).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: 1,
      traceState: 'vendor=x',
    });
    for (const bad of [
      undefined,
      '',
      'garbage',
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
    ])
      expect(parseTraceParent(bad)).toBeUndefined();
    expect(parseTraceParent(`01-${TRACE}-${SPAN}-01-future`)).toMatchObject({ traceId: TRACE });
  });

  it("an incoming traceparent becomes the parent of the run's spans (@skein/otel instrumenting the agent in its factory)", async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const { sessions } = memorySessions();
    const app = createServer({
      agents: {
        support: ({ sessionManager }) => {
          const agent = new Agent({ name: 'support', model: echoModel(), sessionManager });
          instrument(agent, { tracerProvider });
          return agent;
        },
      },
      sessions,
    });
    const res = await post(
      app,
      '/v1/agents/support/conversations/o1/messages',
      { message: 'traced' },
      { traceparent: `00-${TRACE}-${SPAN}-01` },
    );
    expect(res.status).toBe(200);
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name.startsWith('invoke_agent'));
    expect(root?.spanContext().traceId).toBe(TRACE);
    expect(root?.parentSpanContext?.spanId).toBe(SPAN);
    expect(spans.every((s) => s.spanContext().traceId === TRACE)).toBe(true);

    exporter.reset();
    await post(app, '/v1/agents/support/conversations/o2/messages', { message: 'untraced' });
    const own = exporter.getFinishedSpans().find((s) => s.name.startsWith('invoke_agent'));
    expect(own?.spanContext().traceId).not.toBe(TRACE);
    expect(own?.parentSpanContext).toBeUndefined();
  });
});
