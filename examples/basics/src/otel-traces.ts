/**
 * OpenTelemetry traces of the support graph (examples/support-desk): one `invoke_workflow` span per
 * run, `execute_node` per node, `invoke_agent`, `chat` and `execute_tool` below, named by the GenAI
 * semantic conventions. With OTEL_EXPORTER_OTLP_ENDPOINT set (e.g. http://localhost:4318 for a local
 * Jaeger or an OpenTelemetry Collector) the spans go there over OTLP/HTTP; either way the span tree
 * is printed. Runs on scripted models unless a provider's credentials are set (see desk-models.ts).
 * Run: OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 npm run otel --workspace examples
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { instrument } from '@skein/otel';
import { pickDeskModels } from '../../support-desk/src/desk-models.js';
import { DeskStore } from '../../support-desk/src/desk-store.js';
import { buildDeskGraph } from '../../support-desk/src/shapes/graph-desk.js';

const endpoint = process.env['OTEL_EXPORTER_OTLP_ENDPOINT'];
const memory = new InMemorySpanExporter();
const processors: SpanProcessor[] = [new SimpleSpanProcessor(memory)];
// The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (and _HEADERS) itself and posts to <endpoint>/v1/traces.
if (endpoint) processors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'skein-support-desk' }),
  spanProcessors: processors,
});
trace.setGlobalTracerProvider(provider);
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

const dir = await mkdtemp(join(tmpdir(), 'skein-otel-example-'));
try {
  const models = await pickDeskModels();
  console.log(`[model] ${models.description}`);
  const graph = buildDeskGraph({ store: new DeskStore(dir), modelFor: models.modelFor, sessionManager: undefined });
  const uninstrument = instrument(graph, { conversationId: 'example-case' });
  const message = process.argv[2] ?? 'Hi, I was charged twice for order 42';
  console.log(`customer> ${message}`);
  const result = await graph.invoke(message);
  console.log(`desk> ${result.results['summary']?.text ?? result.failureReason ?? result.status}\n`);
  uninstrument();
  await provider.forceFlush();
  printTree(memory.getFinishedSpans());
  console.log(
    endpoint
      ? `\nsent ${memory.getFinishedSpans().length} spans to ${endpoint}`
      : '\n(set OTEL_EXPORTER_OTLP_ENDPOINT to send them to a collector)',
  );
} finally {
  await provider.shutdown();
  await rm(dir, { recursive: true, force: true });
}

/** Spans as an indented tree with duration and the attributes worth a glance. */
function printTree(spans: readonly ReadableSpan[]): void {
  const children = new Map<string, ReadableSpan[]>();
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  for (const s of spans) {
    const parent = s.parentSpanContext?.spanId;
    const key = parent && ids.has(parent) ? parent : 'root';
    children.set(key, [...(children.get(key) ?? []), s]);
  }
  const start = (s: ReadableSpan): number => s.startTime[0] * 1e3 + s.startTime[1] / 1e6;
  const show = (key: string, depth: number): void => {
    for (const s of (children.get(key) ?? []).sort((a, b) => start(a) - start(b))) {
      const ms = s.duration[0] * 1e3 + s.duration[1] / 1e6;
      const a = s.attributes;
      const notes = [
        a['gen_ai.usage.input_tokens'] !== undefined
          ? `${String(a['gen_ai.usage.input_tokens'])} in / ${String(a['gen_ai.usage.output_tokens'])} out`
          : '',
        a['gen_ai.response.finish_reasons'] ? String(a['gen_ai.response.finish_reasons']) : '',
        s.status.code === 2 ? `ERROR ${s.status.message ?? ''}` : '',
        ...s.events.map((e) => e.name.replace('skein.', '')),
      ].filter(Boolean);
      console.log(
        `${'  '.repeat(depth)}${s.name}  ${ms.toFixed(1)} ms${notes.length ? `  (${notes.join(', ')})` : ''}`,
      );
      show(s.spanContext().spanId, depth + 1);
    }
  };
  show('root', 0);
}
