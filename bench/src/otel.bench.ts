/**
 * µs per agent-loop cycle (the core-loop workload: one model turn asking for one trivial tool, the
 * tool, the results message; 10 turns of prior history) three ways: not instrumented; instrumented
 * by `@skein/otel` with no tracer or meter provider registered (the API's no-ops: the cost a library
 * user pays for instrumentation nobody collects); instrumented with the real SDK (BatchSpanProcessor
 * over an exporter that drops everything, and a MeterProvider with a reader). The variants run
 * interleaved one run at a time, medians reported, so drift on a shared machine hits all three alike;
 * wall time (as the other benchmarks) and this process's CPU time (steadier when the machine is busy).
 */
import { z } from 'zod';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { Agent, NullConversationManager, tool, type Message } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { instrument, type InstrumentOptions } from '@skein/otel';
import { table } from './measure.js';

const CYCLES = 200;
const add = tool({
  name: 'add',
  description: 'adds one',
  inputSchema: z.object({ n: z.number() }),
  callback: ({ n }) => String(n + 1),
});
const turns = [...Array.from({ length: CYCLES }, (_, i) => ({ toolUses: [{ name: 'add', input: { n: i } }] })), 'done'];
const history: Message[] = Array.from({ length: 10 }, (_, i) => [
  { role: 'user' as const, content: [{ text: `question ${i}` }] },
  { role: 'assistant' as const, content: [{ text: `answer ${i}` }] },
]).flat();

class DropExporter implements SpanExporter {
  export(_spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    done({ code: 0 }); // ExportResultCode.SUCCESS
  }
  async shutdown(): Promise<void> {}
}

class IdleReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new BatchSpanProcessor(new DropExporter(), { maxQueueSize: 100_000, maxExportBatchSize: 4096 })],
});
const meterProvider = new MeterProvider({ readers: [new IdleReader()] });

async function loop(options: InstrumentOptions | undefined): Promise<void> {
  const agent = new Agent({
    model: new ScriptedModel(turns, { record: false }),
    tools: [add],
    messages: [...history],
    conversationManager: new NullConversationManager(),
  });
  const uninstrument = options ? instrument(agent, options) : undefined;
  await agent.invoke('go');
  uninstrument?.();
}

const variants: [string, InstrumentOptions | undefined][] = [
  ['not instrumented', undefined],
  ['instrumented, no provider registered', {}],
  ['instrumented, SDK + dropping exporter', { tracerProvider, meterProvider }],
];
/** Wall and CPU time (user + system of this process only: steadier when the machine is busy) of one call, in µs per cycle. */
async function timeOne(fn: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const wall = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(cpu);
  return {
    wall: Number(process.hrtime.bigint() - wall) / 1_000 / (CYCLES + 1),
    cpu: (used.user + used.system) / (CYCLES + 1),
  };
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

// One run of each variant in turn (rotating which goes first), many times over: a busy moment of the
// machine hits the three alike. The median of each is reported; the overhead is the ratio of medians.
const samples = new Map<string, { wall: number[]; cpu: number[] }>(
  variants.map(([name]) => [name, { wall: [], cpu: [] }]),
);
const runs = Number(process.env['BENCH_OTEL_RUNS'] ?? 150);
for (const [, options] of variants) for (let i = 0; i < 30; i++) await loop(options);
for (let r = 0; r < runs; r++) {
  for (let v = 0; v < variants.length; v++) {
    const [name, options] = variants[(r + v) % variants.length] as [string, InstrumentOptions | undefined];
    const t = await timeOne(() => loop(options));
    const s = samples.get(name) as { wall: number[]; cpu: number[] };
    s.wall.push(t.wall);
    s.cpu.push(t.cpu);
  }
}
const med = (name: string, k: 'wall' | 'cpu'): number =>
  median((samples.get(name) as { wall: number[]; cpu: number[] })[k]);
const pct = (x: number, of: number): string => `${((x / of - 1) * 100).toFixed(1)}%`;
const rows: (string | number)[][] = [['variant', 'wall µs/cycle', 'vs none', 'cpu µs/cycle', 'vs none']];
for (const [name] of variants) {
  rows.push([
    name,
    med(name, 'wall'),
    pct(med(name, 'wall'), med('not instrumented', 'wall')),
    med(name, 'cpu'),
    pct(med(name, 'cpu'), med('not instrumented', 'cpu')),
  ]);
}
table(rows);
await tracerProvider.shutdown();
await meterProvider.shutdown();
