/**
 * One trace across the A2A boundary: the caller's span goes out as `traceparent`, the served run's
 * spans are its children (tested with @skein/otel on both sides, in-memory exporter).
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { RemoteAgent, serveA2A, type A2AServer } from '@skein/a2a';
import { Agent } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { GraphBuilder } from '@skein/graph';
import { instrument } from '@skein/otel';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
const servers: A2AServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

function tracing() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracerProvider, spans: () => exporter.getFinishedSpans() };
}

const byName = (spans: readonly ReadableSpan[], name: string): ReadableSpan => {
  const s = spans.find((x) => x.name === name);
  if (!s) throw new Error(`no span ${name} in ${spans.map((x) => x.name).join(', ')}`);
  return s;
};

async function servedAgent(tracerProvider: BasicTracerProvider): Promise<A2AServer> {
  const server = await serveA2A({
    agent: (sessionManager) => {
      const agent = new Agent({
        name: 'billing',
        sessionManager,
        model: new ScriptedModel(['Charge reversed.'], { loop: true }),
      });
      instrument(agent, { tracerProvider });
      return agent;
    },
  });
  servers.push(server);
  return server;
}

describe('traceparent across A2A', () => {
  it('a remote agent used as a tool: the served invoke_agent span is a child of the calling execute_tool span', async () => {
    const { tracerProvider, spans } = tracing();
    const server = await servedAgent(tracerProvider);
    const caller = new Agent({
      name: 'desk',
      tools: [new RemoteAgent({ name: 'billing', url: server.url }).asTool()],
      model: new ScriptedModel([{ toolUses: [{ name: 'billing', input: { input: 'charged twice' } }] }, 'Done.']),
    });
    instrument(caller, { tracerProvider });
    await caller.invoke('I was charged twice');
    const all = spans();
    const tool = byName(all, 'execute_tool billing');
    const served = byName(all, 'invoke_agent billing');
    const root = byName(all, 'invoke_agent desk');
    expect(served.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(served.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(served.parentSpanContext?.isRemote).toBe(true);
  });

  it('a remote agent as a Graph node: one trace from the graph through the served run', async () => {
    const { tracerProvider, spans } = tracing();
    const server = await servedAgent(tracerProvider);
    const graph = new GraphBuilder()
      .setId('desk')
      .addNode(new RemoteAgent({ name: 'billing', url: server.url }).asAgent(), 'billing')
      .build();
    instrument(graph, { tracerProvider });
    const result = await graph.invoke('charged twice');
    expect(result.results['billing']?.text).toBe('Charge reversed.');
    const all = spans();
    const workflow = all.find((s) => s.name.startsWith('invoke_workflow'));
    const served = all.filter((s) => s.name === 'invoke_agent billing');
    expect(served).toHaveLength(2); // the stand-in in the graph, and the served agent
    const [standIn, remote] = [...served].sort(
      (a, b) => (a.parentSpanContext?.isRemote ? 1 : 0) - (b.parentSpanContext?.isRemote ? 1 : 0),
    );
    const call = byName(all, 'execute_tool a2a_call');
    expect(remote?.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    for (const s of [standIn, remote, call]) expect(s?.spanContext().traceId).toBe(workflow?.spanContext().traceId);
  });
});
