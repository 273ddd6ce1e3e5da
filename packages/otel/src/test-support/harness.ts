/** The real OpenTelemetry SDK wired for tests: spans in memory, metrics read on demand, AsyncLocalStorage context. */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Installs the AsyncLocalStorage context manager once per test file (what the Node SDK does). */
export function useAsyncContext(): void {
  if (contextManager) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

/** A tracer and meter provider pair reading into memory. */
export interface Harness {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly exporter: InMemorySpanExporter;
  spans(): ReadableSpan[];
  /** Metrics by instrument name. */
  metrics(): Promise<Map<string, MetricData>>;
}

/** Fresh providers for one test. */
export function harness(): Harness {
  useAsyncContext();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    exporter,
    spans: () => exporter.getFinishedSpans(),
    metrics: async () => {
      const { resourceMetrics } = await reader.collect();
      const out = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics) for (const m of scope.metrics) out.set(m.descriptor.name, m);
      return out;
    },
  };
}

/** The span tree as indented names (children sorted by name, so parallel branches read the same every time). */
export function tree(spans: readonly ReadableSpan[]): string {
  const byParent = new Map<string, ReadableSpan[]>();
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  for (const s of spans) {
    const parent = s.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : 'root';
    byParent.set(key, [...(byParent.get(key) ?? []), s]);
  }
  const lines: string[] = [];
  const walk = (key: string, depth: number): void => {
    const kids = [...(byParent.get(key) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const s of kids) {
      lines.push(`${'  '.repeat(depth)}${s.name}`);
      walk(s.spanContext().spanId, depth + 1);
    }
  };
  walk('root', 0);
  return lines.join('\n');
}

/** The one span named `name` (throws when there is not exactly one). */
export function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1)
    throw new Error(`expected one span named ${name}, found ${found.length}: ${spans.map((s) => s.name).join(', ')}`);
  return found[0] as ReadableSpan;
}

/** Data points of a metric, as `{ attributes, value }`. */
function points(metric: MetricData | undefined): { attributes: Record<string, unknown>; value: number | Histogram }[] {
  if (!metric) return [];
  return (metric.dataPoints as DataPoint<number | Histogram>[]).map((p) => ({
    attributes: { ...p.attributes },
    value: p.value,
  }));
}

/** Sum of a counter's points (or count of a histogram's) whose attributes include `match`. */
export function total(metric: MetricData | undefined, match: Record<string, unknown> = {}): number {
  let sum = 0;
  for (const p of points(metric)) {
    if (!Object.entries(match).every(([k, v]) => p.attributes[k] === v)) continue;
    sum += typeof p.value === 'number' ? p.value : (p.value.sum ?? 0);
  }
  return sum;
}

/** Count of a histogram's recordings whose attributes include `match`. */
export function recordings(metric: MetricData | undefined, match: Record<string, unknown> = {}): number {
  let n = 0;
  for (const p of points(metric)) {
    if (!Object.entries(match).every(([k, v]) => p.attributes[k] === v)) continue;
    n += typeof p.value === 'number' ? 1 : p.value.count;
  }
  return n;
}
