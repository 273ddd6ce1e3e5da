/**
 * µs per agent-loop cycle (the core-loop workload: one model turn asking for one trivial tool, the
 * tool, the results message; 10 turns of prior history) three ways: not instrumented; instrumented
 * by `@skein/otel` with no tracer or meter provider registered (the API's no-ops: the cost a library
 * user pays for instrumentation nobody collects); instrumented with the real SDK (BatchSpanProcessor
 * over an exporter that drops everything, and a MeterProvider with a reader). The variants run
 * interleaved, round after round, best of each, so drift on a shared machine hits all three alike;
 * wall time (as the other benchmarks) and this process's CPU time (steadier when the machine is busy).
 */
import { z } from 'zod';
import { ExportResultCode } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { Agent, NullConversationManager, tool, type Message } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import { instrument, type InstrumentOptions } from '@skein/otel';
import { table, usPerOp } from './measure.js';

const CYCLES = 200;
const add = tool({ name: 'add', description: 'adds one', inputSchema: z.object({ n: z.number() }), callback: ({ n }) => String(n + 1) });
const turns = [...Array.from({ length: CYCLES }, (_, i) => ({ toolUses: [{ name: 'add', input: { n: i } }] })), 'done'];
const history: Message[] = Array.from({ length: 10 }, (_, i) => [
  { role: 'user' as const, content: [{ text: `question ${i}` }] },
  { role: 'assistant' as const, content: [{ text: `answer ${i}` }] },
]).flat();

class DropExporter implements SpanExporter {
  export(_spans: ReadableSpan[], done: (result: { code: ExportResultCode }) => void): void {
    done({ code: ExportResultCode.SUCCESS });
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

const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new DropExporter(), { maxQueueSize: 100_000, maxExportBatchSize: 4096 })] });
const meterProvider = new MeterProvider({ readers: [new IdleReader()] });

async function loop(options: InstrumentOptions | undefined): Promise<void> {
  const agent = new Agent({ model: new ScriptedModel(turns, { record: false }), tools: [add], messages: [...history], conversationManager: new NullConversationManager() });
  const uninstrument = options ? instrument(agent, options) : undefined;
  await agent.invoke('go');
  uninstrument?.();
}

const variants: [string, InstrumentOptions | undefined][] = [
  ['not instrumented', undefined],
  ['instrumented, no provider registered', {}],
  ['instrumented, SDK + dropping exporter', { tracerProvider, meterProvider }],
];
/** CPU time (user + system) of this process per call of `fn`, in µs: what the work costs, whatever else the machine runs. */
async function cpuUsPerOp(fn: () => Promise<void>, iterations: number): Promise<number> {
  for (let i = 0; i < iterations; i++) await fn();
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / iterations;
}

const best = new Map<string, number>();
const bestCpu = new Map<string, number>();
const rounds = Number(process.env['BENCH_OTEL_ROUNDS'] ?? 12);
const gc = (globalThis as { gc?: () => void }).gc;
for (let r = 0; r < rounds; r++) {
  // A different variant goes first each round, so none always runs right after a collection or a warm-up.
  for (let v = 0; v < variants.length; v++) {
    const [name, options] = variants[(r + v) % variants.length] as [string, InstrumentOptions | undefined];
    gc?.();
    const us = (await usPerOp(() => loop(options), 5, 1)) / (CYCLES + 1);
    best.set(name, Math.min(best.get(name) ?? Infinity, us));
    gc?.();
    const cpu = (await cpuUsPerOp(() => loop(options), 5)) / (CYCLES + 1);
    bestCpu.set(name, Math.min(bestCpu.get(name) ?? Infinity, cpu));
  }
}
const base = best.get('not instrumented') as number;
const baseCpu = bestCpu.get('not instrumented') as number;
const pct = (x: number, of: number): string => `${((x / of - 1) * 100).toFixed(1)}%`;
const rows: (string | number)[][] = [['variant', 'wall µs/cycle', 'vs none', 'cpu µs/cycle', 'vs none']];
for (const [name] of variants) {
  const wall = best.get(name) as number;
  const cpu = bestCpu.get(name) as number;
  rows.push([name, wall, pct(wall, base), cpu, pct(cpu, baseCpu)]);
}
table(rows);
await tracerProvider.shutdown();
await meterProvider.shutdown();
