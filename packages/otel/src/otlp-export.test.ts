import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Agent, tool } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { instrument } from './index.js';
import { useAsyncContext } from './test-support/harness.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  arrayValue?: { values: OtlpValue[] };
}
interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: OtlpValue }[];
}
interface OtlpRequest {
  resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

/** A loopback OTLP/HTTP receiver: keeps what arrives on /v1/traces. */
async function receiver(): Promise<{
  server: Server;
  url: string;
  requests: { contentType: string | undefined; body: OtlpRequest }[];
}> {
  const requests: { contentType: string | undefined; body: OtlpRequest }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces')
        requests.push({
          contentType: req.headers['content-type'],
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest,
        });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, requests };
}

let open: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => open?.close(resolve));
  open = undefined;
});

describe('export over OTLP/HTTP', () => {
  it('delivers the agent spans with their gen_ai attributes to an OTLP receiver', async () => {
    useAsyncContext();
    const r = await receiver();
    open = r.server;
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: r.url }))],
    });
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up an order.',
      inputSchema: z.object({ id: z.string() }),
      callback: ({ id }) => `order ${id}`,
    });
    const agent = new Agent({
      name: 'support',
      model: new ScriptedModel([{ toolUses: [{ name: 'lookup', input: { id: '1' } }] }, 'Done.'], { modelId: 'm1' }),
      tools: [lookup],
    });
    instrument(agent, { tracerProvider: provider });
    await agent.invoke('go');
    await provider.forceFlush();
    await provider.shutdown();

    expect(r.requests.length).toBeGreaterThan(0);
    expect(r.requests[0]?.contentType).toMatch(/application\/json/);
    const spans = r.requests.flatMap((q) =>
      q.body.resourceSpans.flatMap((rs) =>
        rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => ({ ...s, scope: ss.scope.name }))),
      ),
    );
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat m1',
      'chat m1',
      'execute_tool lookup',
      'invoke_agent support',
    ]);
    expect(new Set(spans.map((s) => s.scope))).toEqual(new Set(['@skein/otel']));
    const root = spans.find((s) => s.name === 'invoke_agent support') as OtlpSpan;
    for (const s of spans.filter((x) => x !== root)) {
      expect(s.traceId).toBe(root.traceId);
      expect(s.parentSpanId).toBe(root.spanId);
    }
    const attr = (s: OtlpSpan, key: string): OtlpValue | undefined => s.attributes.find((a) => a.key === key)?.value;
    expect(attr(root, 'gen_ai.operation.name')).toEqual({ stringValue: 'invoke_agent' });
    expect(Number(attr(root, 'gen_ai.usage.input_tokens')?.intValue)).toBe(20);
    const toolSpan = spans.find((s) => s.name === 'execute_tool lookup') as OtlpSpan;
    expect(attr(toolSpan, 'gen_ai.tool.name')).toEqual({ stringValue: 'lookup' });
    const chat = spans.find((s) => s.name === 'chat m1') as OtlpSpan;
    expect(attr(chat, 'gen_ai.request.model')).toEqual({ stringValue: 'm1' });
    expect(attr(chat, 'gen_ai.response.finish_reasons')?.arrayValue?.values.length).toBe(1);
  });
});
