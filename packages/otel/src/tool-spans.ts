import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { AgentHandle, AfterToolCallEvent, AgentTool, BeforeToolCallEvent } from '@skein/core';
import { seconds, type AgentScope } from './agent-scope.js';
import { resultContent } from './content.js';
import { ATTR, EVENT, OPERATION } from './conventions.js';
import { errorMessage } from '@skein/core';
import { errorType } from './errors.js';
import { clearParent, setParent, type Parent } from './parents.js';

/** One tool use: its `execute_tool {tool}` span, and the agent behind the tool (an agent-as-tool) it parents. */
export interface ToolCall {
  readonly span: Span;
  readonly started: number;
  readonly nested: { agent: AgentHandle; parent: Parent } | undefined;
}

/** The tool, run inside `ctx`: spans the tool starts (HTTP clients, nested agents) nest under its execute_tool span. */
function inContext(tool: AgentTool, ctx: Context): AgentTool {
  const traced = Object.create(tool) as AgentTool;
  Object.defineProperty(traced, 'invoke', {
    value: (input: Parameters<AgentTool['invoke']>[0], toolContext: Parameters<AgentTool['invoke']>[1]) =>
      context.with(ctx, () => tool.invoke(input, toolContext)),
  });
  return traced;
}

/**
 * Starts the `execute_tool {tool}` span of a tool use under the invocation's span (`ctx`). A recorded
 * span becomes the parent of the agent behind the tool, and the tool (in `e.selectedTool`) runs
 * inside it.
 */
export function startTool(
  s: AgentScope,
  e: BeforeToolCallEvent,
  ctx: Context,
  conversationId: string | undefined,
): ToolCall {
  const { toolUse } = e;
  const attributes: Attributes = {
    [ATTR.operationName]: OPERATION.executeTool,
    [ATTR.toolName]: toolUse.name,
    [ATTR.toolCallId]: toolUse.toolUseId,
    [ATTR.toolType]: 'function',
  };
  const description = e.selectedTool?.spec.description;
  if (description !== undefined) attributes[ATTR.toolDescription] = description;
  if (conversationId !== undefined) attributes[ATTR.conversationId] = conversationId;
  const span = s.t.tracer.startSpan(
    `${OPERATION.executeTool} ${toolUse.name}`,
    { kind: SpanKind.INTERNAL, attributes },
    ctx,
  );
  let nested: ToolCall['nested'];
  if (span.isRecording()) {
    if (s.t.capture) span.setAttribute(ATTR.toolCallArguments, JSON.stringify(toolUse.input));
    const toolCtx = trace.setSpan(ctx, span);
    const inner = e.selectedTool?.agent;
    if (inner) {
      nested = { agent: inner, parent: { ctx: toolCtx, conversationId } };
      setParent(inner, nested.parent);
    }
    if (e.selectedTool) e.selectedTool = inContext(e.selectedTool, toolCtx);
  }
  return { span, started: performance.now(), nested };
}

/** Ends a tool use's span with its result (an error result sets the error status), and its metrics. */
export function endTool(s: AgentScope, call: ToolCall, e: AfterToolCallEvent): void {
  const { t } = s;
  const { span } = call;
  const attributes: Attributes = { [ATTR.operationName]: OPERATION.executeTool, [ATTR.toolName]: e.toolUse.name };
  if (e.result.status === 'error') {
    const type = e.error === undefined ? 'tool_error' : errorType(e.error);
    attributes[ATTR.errorType] = type;
    span.setAttribute(ATTR.errorType, type);
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: e.error === undefined ? 'The tool returned an error result.' : errorMessage(e.error),
    });
    t.toolErrors.add(1, attributes);
  }
  if (t.capture && span.isRecording()) span.setAttribute(ATTR.toolCallResult, JSON.stringify(resultContent(e.result)));
  span.end();
  if (call.nested) clearParent(call.nested.agent, call.nested.parent);
  t.toolCalls.add(1, attributes);
  t.toolDuration.record(seconds(call.started), attributes);
}

/** Ends the span of a tool use that got no AfterToolCallEvent: it waits for a person, or was cut short. */
export function abandonTool(call: ToolCall): void {
  call.span.addEvent(EVENT.interrupt);
  call.span.end();
  if (call.nested) clearParent(call.nested.agent, call.nested.parent);
}
