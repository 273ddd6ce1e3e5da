/**
 * An incoming W3C `traceparent` (and `tracestate`) becomes the parent span of the run: the turn runs
 * inside an OpenTelemetry context holding that remote span, so `@skein/otel`'s spans of the run (and
 * everything under them) join the caller's trace. `@opentelemetry/api` is an optional peer: it is
 * loaded on the first request that carries a `traceparent`, and without it the header is ignored.
 */

/** A parsed `traceparent` header. */
export interface TraceParent {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: string;
}

/** Parses `traceparent` (W3C Trace Context, version 00 and later); `undefined` when absent or invalid. */
export function parseTraceParent(header: string | null | undefined, state?: string | null): TraceParent | undefined {
  if (!header || header.length > 512) return undefined;
  const match = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & 0xff,
    ...(state && state.length <= 512 ? { traceState: state } : {}),
  };
}

type OtelApi = typeof import('@opentelemetry/api');
let api: Promise<OtelApi | undefined> | undefined;

function loadApi(): Promise<OtelApi | undefined> {
  api ??= import('@opentelemetry/api').then(
    (m) => m,
    () => undefined,
  );
  return api;
}

/** Runs `fn` with `parent` as the active (remote) span when OpenTelemetry's API is installed. */
export async function runUnderParent<T>(parent: TraceParent | undefined, fn: () => Promise<T>): Promise<T> {
  if (!parent) return fn();
  const otel = await loadApi();
  if (!otel) return fn();
  const spanContext = {
    traceId: parent.traceId,
    spanId: parent.spanId,
    traceFlags: parent.traceFlags,
    isRemote: true,
    ...(parent.traceState ? { traceState: otel.createTraceState(parent.traceState) } : {}),
  };
  const ctx = otel.trace.setSpanContext(otel.context.active(), spanContext);
  return otel.context.with(ctx, fn);
}
