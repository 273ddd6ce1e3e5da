import { SpanKind, SpanStatusCode, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { AfterModelCallEvent, ModelStreamEvent } from '@skein/core';
import { seconds, type AgentScope } from './agent-scope.js';
import { instructionsJson, messagesJson } from './content.js';
import { ATTR, OPERATION } from './conventions.js';
import { errorMessage } from '@skein/core';
import { errorType } from './errors.js';
import { addTokens, noTokens, usageAttributes, type TokenCounts } from './usage.js';

/** One model call: its `chat {model}` span, and what its stream said. */
export interface ChatCall {
  readonly span: Span;
  readonly started: number;
  firstChunk: number | undefined;
  readonly tokens: TokenCounts;
  /** The provider and model of the model that answered, when a delegating model (`fallback`, `route`) said. */
  answeredBy: Attributes | undefined;
}

/** Starts the `chat {model}` span of a model call under the invocation's span (`ctx`). */
export function startChat(s: AgentScope, ctx: Context, conversationId: string | undefined): ChatCall {
  const { agent, t } = s;
  const attributes: Attributes = { ...s.metricBase, [ATTR.operationName]: OPERATION.chat };
  if (conversationId !== undefined) attributes[ATTR.conversationId] = conversationId;
  const span = t.tracer.startSpan(
    `${OPERATION.chat} ${agent.model.modelId}`,
    { kind: SpanKind.CLIENT, attributes },
    ctx,
  );
  if (t.capture && span.isRecording()) {
    span.setAttribute(ATTR.inputMessages, messagesJson(agent.messages));
    if (agent.systemPrompt !== undefined)
      span.setAttribute(ATTR.systemInstructions, instructionsJson(agent.systemPrompt));
  }
  return { span, started: performance.now(), firstChunk: undefined, tokens: noTokens(), answeredBy: undefined };
}

/** Reads one event of the model's stream: the usage it reports, the time of the first chunk. */
export function readChatEvent(call: ChatCall, event: ModelStreamEvent): void {
  if ('metadata' in event) addTokens(call.tokens, event.metadata.usage);
  else if (call.firstChunk === undefined && ('contentBlockDelta' in event || 'contentBlockStart' in event))
    call.firstChunk = performance.now();
}

/** Ends a model call's span: time to first chunk, finish reason and usage (or the error), and its metrics. */
export function endChat(s: AgentScope, call: ChatCall, e: AfterModelCallEvent): void {
  const { t } = s;
  const { span } = call;
  const attributes: Attributes = { ...s.metricBase, ...call.answeredBy, [ATTR.operationName]: OPERATION.chat };
  if (call.firstChunk !== undefined) {
    const ttfc = (call.firstChunk - call.started) / 1000;
    span.setAttribute(ATTR.timeToFirstChunk, ttfc);
    t.timeToFirstChunk.record(ttfc, attributes);
  }
  if (e.stopResponse) {
    span.setAttributes({ [ATTR.finishReasons]: [e.stopResponse.stopReason], ...usageAttributes(call.tokens) });
    if (t.capture && span.isRecording())
      span.setAttribute(ATTR.outputMessages, messagesJson([e.stopResponse.message], e.stopResponse.stopReason));
    t.tokenUsage.record(call.tokens.input, { ...attributes, [ATTR.tokenType]: 'input' });
    t.tokenUsage.record(call.tokens.output, { ...attributes, [ATTR.tokenType]: 'output' });
  } else {
    const type = errorType(e.error);
    attributes[ATTR.errorType] = type;
    span.setAttribute(ATTR.errorType, type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(e.error) });
  }
  span.end();
  t.operationDuration.record(seconds(call.started), attributes);
}
