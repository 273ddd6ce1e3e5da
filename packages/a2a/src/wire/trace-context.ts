/**
 * W3C trace context across the A2A boundary. A call sends `traceparent` made from the active
 * OpenTelemetry span; a served task runs inside the caller's span context, so one trace covers both
 * sides. `@opentelemetry/api` is an optional peer dependency: without it (or without an active span)
 * nothing is sent and nothing is done.
 */
type OtelApi = typeof import('@opentelemetry/api');

let api: OtelApi | null | undefined;
let loading: Promise<void> | undefined;

/** Loads `@opentelemetry/api` once, if it is installed. */
export function loadTraceApi(): Promise<void> {
  loading ??= import('@opentelemetry/api').then(
    (m) => void (api = m),
    () => void (api = null),
  );
  return loading;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The `traceparent` of the active span, or `undefined` (no OpenTelemetry, no valid active span). */
export function currentTraceparent(): string | undefined {
  if (!api) return undefined;
  const span = api.trace.getSpan(api.context.active());
  const sc = span?.spanContext();
  if (!sc || !api.trace.isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** Whether a header value is a valid version-00 `traceparent`. */
export function isTraceparent(value: string | null | undefined): value is string {
  const m = value ? TRACEPARENT.exec(value) : null;
  return m !== null && !/^0+$/.test(m[1] ?? '') && !/^0+$/.test(m[2] ?? '');
}

/** Runs `fn` inside the remote span context of `traceparent` (as is when there is none or no OpenTelemetry). */
export function withTraceparent<T>(traceparent: string | undefined, fn: () => T): T {
  const m = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (!api || !m) return fn();
  const parent = api.trace.setSpanContext(api.ROOT_CONTEXT, {
    traceId: m[1] as string,
    spanId: m[2] as string,
    traceFlags: Number.parseInt(m[3] as string, 16),
    isRemote: true,
  });
  return api.context.with(parent, fn);
}
