import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import {
  AfterInvocationEvent,
  AfterModelCallEvent,
  AfterToolCallEvent,
  BeforeInvocationEvent,
  BeforeModelCallEvent,
  BeforeToolCallEvent,
  type Agent,
  type AgentStreamEvent,
  type AgentTool,
  type Usage,
} from '@skein/core';
import { instructionsJson, messagesJson, resultContent } from './content.js';
import { ATTR, EVENT, OPERATION } from './conventions.js';
import { errorMessage, errorType } from './errors.js';
import type { Telemetry } from './options.js';
import { clearParent, parentOf, setParent, type Parent } from './parents.js';
import { usageAttributes, type TokenCounts } from './usage.js';

interface ChatCall {
  readonly span: Span;
  readonly started: number;
  firstChunk: number | undefined;
  readonly tokens: TokenCounts;
}

interface ToolCall {
  readonly span: Span;
  readonly started: number;
  readonly nested: { agent: Agent; parent: Parent } | undefined;
}

interface AgentRun {
  readonly span: Span;
  readonly ctx: Context;
  readonly started: number;
  readonly conversationId: string | undefined;
  readonly tokens: TokenCounts;
  cycles: number;
  chat: ChatCall | undefined;
  readonly tools: Map<string, ToolCall>;
}

type StreamEvent<T extends AgentStreamEvent['type']> = Extract<AgentStreamEvent, { type: T }>;

const seconds = (from: number): number => (performance.now() - from) / 1000;
const noTokens = (): TokenCounts => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/**
 * Spans and metrics of one agent: `invoke_agent {name}` per invocation, `chat {model}` per model call
 * and `execute_tool {tool}` per tool use below it. Hooks mark the boundaries (they carry errors and
 * results); listeners read the model's stream (usage, finish reason, first chunk), retries and
 * interrupts. Returns a function that removes all of it.
 */
export function instrumentAgent(agent: Agent, t: Telemetry): () => void {
  let run: AgentRun | undefined;
  const metricBase: Attributes = {
    [ATTR.providerName]: t.providerOf(agent.model),
    [ATTR.requestModel]: agent.model.modelId,
  };

  const start = (): void => {
    const parent = parentOf(agent);
    const conversationId = t.conversationId ?? parent?.conversationId ?? agent.sessionManager?.sessionId;
    const attributes: Attributes = {
      ...metricBase,
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
    run = {
      span,
      ctx: trace.setSpan(parentCtx, span),
      started: performance.now(),
      conversationId,
      tokens: noTokens(),
      cycles: 0,
      chat: undefined,
      tools: new Map(),
    };
    // Nothing records spans or metrics (no provider registered, or an unsampled trace): the loop runs
    // without our per-cycle hooks and listeners, as if uninstrumented.
    if (span.isRecording() || t.metricsOn) attach();
  };

  const beforeModel = (): void => {
    if (!run) return;
    const attributes: Attributes = { ...metricBase, [ATTR.operationName]: OPERATION.chat };
    if (run.conversationId !== undefined) attributes[ATTR.conversationId] = run.conversationId;
    const span = t.tracer.startSpan(
      `${OPERATION.chat} ${agent.model.modelId}`,
      { kind: SpanKind.CLIENT, attributes },
      run.ctx,
    );
    if (t.capture && span.isRecording()) {
      span.setAttribute(ATTR.inputMessages, messagesJson(agent.messages));
      if (agent.systemPrompt !== undefined)
        span.setAttribute(ATTR.systemInstructions, instructionsJson(agent.systemPrompt));
    }
    run.chat = { span, started: performance.now(), firstChunk: undefined, tokens: noTokens() };
  };

  const onStream = (e: StreamEvent<'modelStreamEvent'>): void => {
    const call = run?.chat;
    if (!call) return;
    const event = e.event;
    if ('metadata' in event) addTokens(call.tokens, event.metadata.usage);
    else if (call.firstChunk === undefined && ('contentBlockDelta' in event || 'contentBlockStart' in event))
      call.firstChunk = performance.now();
  };

  const afterModel = (e: AfterModelCallEvent): void => {
    const call = run?.chat;
    if (!run || !call) return;
    run.chat = undefined;
    const { span } = call;
    const attributes: Attributes = { ...metricBase, [ATTR.operationName]: OPERATION.chat };
    if (call.firstChunk !== undefined) {
      const ttfc = (call.firstChunk - call.started) / 1000;
      span.setAttribute(ATTR.timeToFirstChunk, ttfc);
      t.timeToFirstChunk.record(ttfc, attributes);
    }
    if (e.stopResponse) {
      run.cycles++;
      addCounts(run.tokens, call.tokens);
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
  };

  const beforeTool = (e: BeforeToolCallEvent): void => {
    if (!run) return;
    const { toolUse } = e;
    const attributes: Attributes = {
      [ATTR.operationName]: OPERATION.executeTool,
      [ATTR.toolName]: toolUse.name,
      [ATTR.toolCallId]: toolUse.toolUseId,
      [ATTR.toolType]: 'function',
    };
    const description = e.selectedTool?.spec.description;
    if (description !== undefined) attributes[ATTR.toolDescription] = description;
    if (run.conversationId !== undefined) attributes[ATTR.conversationId] = run.conversationId;
    const span = t.tracer.startSpan(
      `${OPERATION.executeTool} ${toolUse.name}`,
      { kind: SpanKind.INTERNAL, attributes },
      run.ctx,
    );
    let nested: ToolCall['nested'];
    if (span.isRecording()) {
      if (t.capture) span.setAttribute(ATTR.toolCallArguments, JSON.stringify(toolUse.input));
      const ctx = trace.setSpan(run.ctx, span);
      const inner = e.selectedTool?.agent;
      if (inner) {
        nested = { agent: inner, parent: { ctx, conversationId: run.conversationId } };
        setParent(inner, nested.parent);
      }
      if (e.selectedTool) e.selectedTool = inContext(e.selectedTool, ctx);
    }
    run.tools.set(toolUse.toolUseId, { span, started: performance.now(), nested });
  };

  const afterTool = (e: AfterToolCallEvent): void => {
    const call = run?.tools.get(e.toolUse.toolUseId);
    if (!run || !call) return;
    run.tools.delete(e.toolUse.toolUseId);
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
    if (t.capture && span.isRecording())
      span.setAttribute(ATTR.toolCallResult, JSON.stringify(resultContent(e.result)));
    span.end();
    if (call.nested) clearParent(call.nested.agent, call.nested.parent);
    t.toolCalls.add(1, attributes);
    t.toolDuration.record(seconds(call.started), attributes);
  };

  const onRetry = (e: StreamEvent<'modelRetry'>): void => {
    run?.span.addEvent(EVENT.retry, {
      [ATTR.attempt]: e.attempt,
      [ATTR.delayMs]: e.delayMs,
      [ATTR.errorType]: errorType(e.error),
      [ATTR.discarded]: e.discardedPartialAnswer,
    });
  };

  const onInterrupt = (e: StreamEvent<'interrupt'>): void => {
    run?.span.addEvent(EVENT.interrupt, {
      [ATTR.interruptIds]: e.interrupts.map((i) => i.id),
      [ATTR.interruptNames]: e.interrupts.map((i) => i.name),
    });
  };

  const finish = (e: AfterInvocationEvent): void => {
    if (!run) return;
    const { span } = run;
    run.chat?.span.end();
    for (const call of run.tools.values()) {
      // A tool use that waits for a person (or was cut short) has no AfterToolCallEvent.
      call.span.addEvent(EVENT.interrupt);
      call.span.end();
      if (call.nested) clearParent(call.nested.agent, call.nested.parent);
    }
    const attributes: Attributes = { ...metricBase, [ATTR.operationName]: OPERATION.invokeAgent };
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
    run = undefined;
    detach();
  };

  let perCycle: (() => void)[] = [];
  const attach = (): void => {
    perCycle = [
      agent.hooks.addCallback(BeforeModelCallEvent, beforeModel),
      agent.hooks.addCallback(AfterModelCallEvent, afterModel),
      agent.hooks.addCallback(BeforeToolCallEvent, beforeTool),
      agent.hooks.addCallback(AfterToolCallEvent, afterTool),
    ];
    agent.on('modelStreamEvent', onStream).on('modelRetry', onRetry);
  };
  const detach = (): void => {
    for (const remove of perCycle.splice(0)) remove();
    agent.off('modelStreamEvent', onStream).off('modelRetry', onRetry);
  };

  // Per invocation: these two hooks and the interrupt listener (which also keeps the agent's listener
  // registry in place, so that listeners attached when an invocation starts hear its events).
  const removers = [
    agent.hooks.addCallback(BeforeInvocationEvent, start),
    agent.hooks.addCallback(AfterInvocationEvent, finish),
  ];
  agent.on('interrupt', onInterrupt);
  return () => {
    for (const remove of removers) remove();
    detach();
    agent.off('interrupt', onInterrupt);
  };
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

function addTokens(into: TokenCounts, usage: Usage): void {
  into.input += usage.inputTokens;
  into.output += usage.outputTokens;
  into.cacheRead += usage.cacheReadInputTokens ?? 0;
  into.cacheWrite += usage.cacheWriteInputTokens ?? 0;
}

function addCounts(into: TokenCounts, from: TokenCounts): void {
  into.input += from.input;
  into.output += from.output;
  into.cacheRead += from.cacheRead;
  into.cacheWrite += from.cacheWrite;
}
