import {
  createNoopMeter,
  metrics,
  trace,
  type Counter,
  type Histogram,
  type MeterProvider,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { Model } from '@skein/core';
import { CAPTURE_CONTENT_ENV, KIND_SPAN_NAMES, METRIC, PROVIDER_BY_MODEL_CLASS } from './conventions.js';

/** Options of `instrument()`. */
export interface InstrumentOptions {
  /** Where spans go. Default: the global tracer provider (`trace.setGlobalTracerProvider`, or the Node SDK's). */
  tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global meter provider. */
  meterProvider?: MeterProvider;
  /**
   * Record prompts, answers, system prompts, tool arguments and tool results on spans. Default: the
   * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` environment variable is `true`; otherwise off.
   */
  captureMessageContent?: boolean;
  /**
   * Name of an orchestrator run's span: `'invoke_workflow'` (default, the conventions' name:
   * `invoke_workflow {id}`) or `'kind'` (Strands' names: `invoke_graph {id}`, `invoke_swarm {id}`).
   */
  workflowSpanName?: 'invoke_workflow' | 'kind';
  /** `gen_ai.provider.name`. Default: from the model class (`anthropic`, `aws.bedrock`, `openai`), else the model's own `providerName` field, else `skein`. */
  providerName?: string | ((model: Model) => string);
  /** `gen_ai.conversation.id` for every span. Default: a standalone agent's session id; orchestrators have none unless given here. */
  conversationId?: string;
  /**
   * Give a root orchestrator run a trace id derived from its start transition, and link a run resumed
   * later (in this or another process) to it. Default `true`.
   */
  linkResumedRuns?: boolean;
}

/** The resolved options and instruments one `instrument()` call works with. */
export interface Telemetry {
  readonly tracer: Tracer;
  readonly capture: boolean;
  readonly workflowSpanName: 'invoke_workflow' | 'kind';
  readonly conversationId: string | undefined;
  /** False when metrics go nowhere (no meter provider given or registered): per-cycle work can be skipped. */
  readonly metricsOn: boolean;
  providerOf(model: Model): string;
  readonly tokenUsage: Histogram;
  readonly operationDuration: Histogram;
  readonly timeToFirstChunk: Histogram;
  readonly toolCalls: Counter;
  readonly toolErrors: Counter;
  readonly toolDuration: Histogram;
  readonly nodeExecutions: Counter;
  readonly nodeDuration: Histogram;
  readonly cycles: Histogram;
}

const SCOPE = '@skein/otel';
const VERSION = '0.1.0';

/** Resolves the options: tracer, meter instruments, content capture. */
export function resolveTelemetry(options: InstrumentOptions): Telemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, VERSION);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION);
  const histogram = (m: { name: string; unit: string; description: string }): Histogram =>
    meter.createHistogram(m.name, { unit: m.unit, description: m.description });
  const counter = (m: { name: string; unit: string; description: string }): Counter =>
    meter.createCounter(m.name, { unit: m.unit, description: m.description });
  const provider = options.providerName;
  return {
    tracer,
    capture: options.captureMessageContent ?? process.env[CAPTURE_CONTENT_ENV]?.toLowerCase() === 'true',
    workflowSpanName: options.workflowSpanName ?? 'invoke_workflow',
    conversationId: options.conversationId,
    metricsOn: meter !== createNoopMeter(),
    providerOf: typeof provider === 'function' ? provider : provider !== undefined ? () => provider : providerOfModel,
    tokenUsage: histogram(METRIC.tokenUsage),
    operationDuration: histogram(METRIC.operationDuration),
    timeToFirstChunk: histogram(METRIC.timeToFirstChunk),
    toolCalls: counter(METRIC.toolCalls),
    toolErrors: counter(METRIC.toolErrors),
    toolDuration: histogram(METRIC.toolDuration),
    nodeExecutions: counter(METRIC.nodeExecutions),
    nodeDuration: histogram(METRIC.nodeDuration),
    cycles: histogram(METRIC.cycles),
  };
}

/** `gen_ai.provider.name` of a model: its class, its own `providerName`, or `skein`. */
export function providerOfModel(model: Model): string {
  const own = (model as { providerName?: unknown }).providerName;
  if (typeof own === 'string') return own;
  return PROVIDER_BY_MODEL_CLASS[model.constructor.name] ?? 'skein';
}

/** The span name of an orchestrator run. */
export function workflowSpanName(telemetry: Telemetry, orchestrator: object & { id: string }): string {
  const kind = telemetry.workflowSpanName === 'kind' ? KIND_SPAN_NAMES[orchestrator.constructor.name] : undefined;
  return `${kind ?? 'invoke_workflow'} ${orchestrator.id}`;
}
