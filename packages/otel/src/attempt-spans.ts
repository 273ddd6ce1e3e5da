import { SpanKind, SpanStatusCode, trace, type Attributes, type Context } from '@opentelemetry/api';
import { errorMessage, type AgentStreamEvent } from '@skein/core';
import type { AgentScope } from './agent-scope.js';
import type { ChatCall } from './chat-spans.js';
import { ATTR, EVENT, OPERATION } from './conventions.js';
import { errorType } from './errors.js';

type AttemptEvent = Extract<AgentStreamEvent, { type: 'modelAttempt' }>;

/**
 * One model behind a `fallback` or `route` as the trace shows it. The model that answered gives
 * the call's `chat` span its name and `gen_ai` attributes (provider, request and response model),
 * which its metrics carry too. A model that failed gets its own `chat {model}` span under the call's,
 * timed as the attempt, with `error.type`, and counts in the operation-duration metric; a model
 * skipped by its circuit breaker is an event on the call's span.
 */
export function recordAttempt(s: AgentScope, call: ChatCall, ctx: Context, e: AttemptEvent): void {
  const { t } = s;
  const model: Attributes = { [ATTR.providerName]: t.providerOf(e.model), [ATTR.requestModel]: e.modelId };
  if (e.outcome === 'answered') {
    call.answeredBy = model;
    call.span.updateName(`${OPERATION.chat} ${e.modelId}`);
    call.span.setAttributes({ ...model, [ATTR.responseModel]: e.modelId });
    return;
  }
  const type = errorType(e.error);
  if (e.outcome === 'skipped') {
    call.span.addEvent(EVENT.skipped, { ...model, [ATTR.errorType]: type });
    return;
  }
  const attributes: Attributes = {
    ...s.metricBase,
    ...model,
    [ATTR.operationName]: OPERATION.chat,
    [ATTR.errorType]: type,
  };
  const span = t.tracer.startSpan(
    `${OPERATION.chat} ${e.modelId}`,
    { kind: SpanKind.CLIENT, attributes, startTime: e.startedAt },
    trace.setSpan(ctx, call.span),
  );
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(e.error) });
  span.end(e.startedAt + e.durationMs);
  t.operationDuration.record(e.durationMs / 1000, attributes);
}
