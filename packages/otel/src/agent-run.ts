import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { AfterInvocationEvent } from '@skein/core';
import { seconds, type AgentScope } from './agent-scope.js';
import type { ChatCall } from './chat-spans.js';
import { instructionsJson, messagesJson } from './content.js';
import { ATTR, EVENT, OPERATION } from './conventions.js';
import { errorMessage, errorType } from './errors.js';
import { parentOf } from './parents.js';
import { abandonTool, type ToolCall } from './tool-spans.js';
import { noTokens, usageAttributes, type TokenCounts } from './usage.js';

/** One invocation of an agent: its `invoke_agent {name}` span, and the model call and tool uses open under it. */
export interface AgentRun {
  readonly span: Span;
  /** The context of the invocation's span, the parent of its model calls and tool uses. */
  readonly ctx: Context;
  readonly started: number;
  readonly conversationId: string | undefined;
  readonly tokens: TokenCounts;
  cycles: number;
  chat: ChatCall | undefined;
  readonly tools: Map<string, ToolCall>;
}

/**
 * Starts the `invoke_agent {name}` span of an invocation: under the span registered as the agent's
 * parent (a node, an agent-as-tool's call), else the active context. A resumed invocation (the
 * agent has interrupts waiting) gets a resume event.
 */
export function startAgentRun(s: AgentScope): AgentRun {
  const { agent, t } = s;
  const parent = parentOf(agent);
  const conversationId = t.conversationId ?? parent?.conversationId ?? agent.sessionManager?.sessionId;
  const attributes: Attributes = {
    ...s.metricBase,
    [ATTR.operationName]: OPERATION.invokeAgent,
    [ATTR.agentName]: agent.name,
    [ATTR.agentId]: agent.id,
  };
  if (agent.description !== undefined) attributes[ATTR.agentDescription] = agent.description;
  if (conversationId !== undefined) attributes[ATTR.conversationId] = conversationId;
  const parentCtx = parent?.ctx ?? context.active();
  const span = t.tracer.startSpan(
    `${OPERATION.invokeAgent} ${agent.name}`,
    { kind: SpanKind.INTERNAL, attributes },
    parentCtx,
  );
  if (t.capture && agent.systemPrompt !== undefined && span.isRecording())
    span.setAttribute(ATTR.systemInstructions, instructionsJson(agent.systemPrompt));
  const waiting = agent.interrupts;
  if (waiting.length > 0)
    span.addEvent(EVENT.resume, {
      [ATTR.interruptIds]: waiting.map((i) => i.id),
      [ATTR.interruptNames]: waiting.map((i) => i.name),
    });
  const ctx = trace.setSpan(parentCtx, span);
  return {
    span,
    ctx,
    started: performance.now(),
    conversationId,
    tokens: noTokens(),
    cycles: 0,
    chat: undefined,
    tools: new Map(),
  };
}

/**
 * Ends an invocation's span (and what is still open under it): usage and cycles, the stop reason,
 * the error or (when captured) the last answer; then its metrics.
 */
export function endAgentRun(s: AgentScope, run: AgentRun, e: AfterInvocationEvent): void {
  const { agent, t } = s;
  const { span } = run;
  run.chat?.span.end();
  for (const call of run.tools.values()) abandonTool(call);
  const attributes: Attributes = { ...s.metricBase, [ATTR.operationName]: OPERATION.invokeAgent };
  span.setAttributes({ ...usageAttributes(run.tokens), [ATTR.cycles]: run.cycles });
  if (e.stopReason !== undefined)
    span.setAttributes({ [ATTR.finishReasons]: [e.stopReason], [ATTR.stopReason]: e.stopReason });
  if (e.error !== undefined) {
    const type = errorType(e.error);
    attributes[ATTR.errorType] = type;
    span.setAttribute(ATTR.errorType, type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(e.error) });
  } else if (t.capture && span.isRecording()) {
    const last = agent.messages[agent.messages.length - 1];
    if (last?.role === 'assistant') span.setAttribute(ATTR.outputMessages, messagesJson([last], e.stopReason));
  }
  span.end();
  t.operationDuration.record(seconds(run.started), attributes);
  t.cycles.record(run.cycles, { [ATTR.agentName]: agent.name });
}
