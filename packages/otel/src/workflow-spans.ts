import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import {
  AfterMultiAgentInvocationEvent,
  AfterNodeCallEvent,
  BeforeMultiAgentInvocationEvent,
  BeforeNodeCallEvent,
  type JsonObject,
  type MultiAgentResult,
  type NodeTransition,
} from '@skein/core';
import { ATTR, EVENT, OPERATION } from './conventions.js';
import { errorMessage, errorType } from './errors.js';
import { workflowSpanName, type Telemetry } from './options.js';
import { clearParent, parentOf, setParent, type Parent } from './parents.js';
import { anchorContext, anchorOf, originKey, runKey } from './run-anchor.js';
import { countsOf, usageAttributes } from './usage.js';
import { guardErrors, nodeTargets, type Orchestrator } from './walk.js';

interface NodeExecution {
  readonly span: Span;
  readonly started: number;
  readonly nested: { target: object; parent: Parent } | undefined;
}

interface WorkflowRun {
  span: Span | undefined;
  ctx: Context | undefined;
  readonly parent: Parent | undefined;
  /** The ambient context when the run started (a caller's own span, or an agent-as-tool's). */
  readonly active: Context;
  readonly startTime: number;
  readonly started: number;
  readonly conversationId: string | undefined;
  readonly nodes: Map<string, NodeExecution>;
  readonly counts: Map<string, number>;
  resumed: boolean;
}

/** Options of one orchestrator's instrumentation. */
export interface WorkflowOptions {
  /** Root runs get a trace id from their start transition; resumed runs link to it (see run-anchor.ts). */
  readonly linkResumedRuns: boolean;
}

/**
 * Spans and metrics of one Graph or Swarm: `invoke_workflow {id}` per run and `execute_node {id}` per
 * node execution below it; transitions, handoffs, interrupts and resumes as span events on the run.
 * The run's span starts at its first transition (whose `seq` and `at` identify the run across
 * processes) or its first node, whichever comes first, backdated to the run's start.
 */
export function instrumentWorkflow(o: Orchestrator, t: Telemetry, options: WorkflowOptions): () => void {
  let run: WorkflowRun | undefined;
  const targets = nodeTargets(o);
  const kind = o.constructor.name.toLowerCase();

  const ensureRun = (): WorkflowRun => {
    if (run) return run;
    const parent = parentOf(o);
    run = {
      span: undefined,
      ctx: undefined,
      parent,
      active: context.active(),
      startTime: Date.now(),
      started: performance.now(),
      conversationId: t.conversationId ?? parent?.conversationId,
      nodes: new Map(),
      counts: new Map(),
      resumed: false,
    };
    return run;
  };

  const isRoot = (r: WorkflowRun): boolean => r.parent === undefined && trace.getSpan(r.active) === undefined;

  const open = (r: WorkflowRun, start?: NodeTransition): Span => {
    if (r.span) return r.span;
    let parentCtx = r.parent?.ctx ?? r.active;
    const attributes: Attributes = {
      [ATTR.operationName]: OPERATION.invokeWorkflow,
      [ATTR.workflowName]: o.id,
      [ATTR.orchestratorKind]: kind,
    };
    if (r.conversationId !== undefined) attributes[ATTR.conversationId] = r.conversationId;
    if (start && options.linkResumedRuns && isRoot(r)) {
      const key = runKey(o.id, start);
      parentCtx = anchorContext(parentCtx, key);
      attributes[ATTR.runId] = anchorOf(key).traceId;
    }
    const span = t.tracer.startSpan(
      workflowSpanName(t, o),
      { kind: SpanKind.INTERNAL, attributes, startTime: r.startTime },
      parentCtx,
    );
    r.span = span;
    r.ctx = trace.setSpan(parentCtx, span);
    return span;
  };

  const onTransition = (e: { transition: NodeTransition }): void => {
    const tr = e.transition;
    const r = ensureRun();
    if (!r.span && tr.kind === 'resume') r.resumed = true;
    const span = open(r, tr.kind === 'start' ? tr : undefined);
    const name =
      tr.kind === 'handoff'
        ? EVENT.handoff
        : tr.kind === 'interrupt'
          ? EVENT.interrupt
          : tr.kind === 'resume'
            ? EVENT.resume
            : EVENT.transition;
    const attributes: Attributes = {
      [ATTR.transitionSeq]: tr.seq,
      [ATTR.transitionKind]: tr.kind,
      [ATTR.transitionReason]: tr.reason,
    };
    if (tr.from !== null) attributes[ATTR.transitionFrom] = tr.from;
    if (tr.to !== null) attributes[ATTR.transitionTo] = tr.to;
    if (tr.kind === 'handoff' && tr.details) addHandoffDetails(attributes, tr.details);
    span.addEvent(name, attributes);
  };

  const beforeNode = (e: BeforeNodeCallEvent): void => {
    const r = ensureRun();
    open(r);
    const count = (r.counts.get(e.nodeId) ?? 0) + 1;
    r.counts.set(e.nodeId, count);
    const attributes: Attributes = { [ATTR.nodeId]: e.nodeId, [ATTR.nodeExecution]: count, [ATTR.workflowName]: o.id };
    if (r.conversationId !== undefined) attributes[ATTR.conversationId] = r.conversationId;
    const span = t.tracer.startSpan(`execute_node ${e.nodeId}`, { kind: SpanKind.INTERNAL, attributes }, r.ctx);
    const target = targets.get(e.nodeId);
    const nested = target
      ? { target, parent: { ctx: trace.setSpan(r.ctx as Context, span), conversationId: r.conversationId } }
      : undefined;
    if (nested) setParent(nested.target, nested.parent);
    r.nodes.get(e.nodeId)?.span.end();
    r.nodes.set(e.nodeId, { span, started: performance.now(), nested });
  };

  const afterNode = (e: AfterNodeCallEvent): void => {
    const exec = run?.nodes.get(e.nodeId);
    if (!run || !exec) return;
    run.nodes.delete(e.nodeId);
    const { span } = exec;
    const { result } = e;
    span.setAttributes({ [ATTR.nodeStatus]: result.status, ...usageAttributes(countsOf(result.usage)) });
    if (result.status === 'failed')
      span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? 'The node failed.' });
    if (result.interrupts?.length)
      span.addEvent(EVENT.interrupt, {
        [ATTR.interruptIds]: result.interrupts.map((i) => i.id),
        [ATTR.interruptNames]: result.interrupts.map((i) => i.name),
      });
    span.end();
    if (exec.nested) clearParent(exec.nested.target, exec.nested.parent);
    const attributes: Attributes = {
      [ATTR.workflowName]: o.id,
      [ATTR.nodeId]: e.nodeId,
      [ATTR.nodeStatus]: result.status,
    };
    t.nodeExecutions.add(1, attributes);
    t.nodeDuration.record((performance.now() - exec.started) / 1000, attributes);
  };

  const finish = (result: MultiAgentResult | undefined, error: unknown): void => {
    const r = run;
    if (!r) return;
    run = undefined;
    const span = open(r);
    for (const exec of r.nodes.values()) {
      // A node that stopped without AfterNodeCallEvent: paused before it ran, or cut by the run's end.
      exec.span.addEvent(EVENT.interrupt);
      exec.span.end();
      if (exec.nested) clearParent(exec.nested.target, exec.nested.parent);
    }
    const attributes: Attributes = { [ATTR.operationName]: OPERATION.invokeWorkflow, [ATTR.workflowName]: o.id };
    if (result) {
      span.setAttributes({ [ATTR.runStatus]: result.status, ...usageAttributes(countsOf(result.accumulatedUsage)) });
      if (result.status === 'failed') {
        attributes[ATTR.errorType] = 'failed';
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.failureReason ?? 'The run failed.' });
      }
      const origin =
        r.resumed && options.linkResumedRuns && isRoot(r) ? originKey(o.id, result.transitions) : undefined;
      if (origin !== undefined) {
        const anchor = anchorOf(origin);
        span.addLink({ context: anchor, attributes: { [ATTR.runId]: anchor.traceId } });
        span.setAttribute(ATTR.runId, anchor.traceId);
      }
    } else {
      const type = errorType(error);
      attributes[ATTR.errorType] = type;
      span.setAttribute(ATTR.errorType, type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
    }
    span.end();
    t.operationDuration.record((performance.now() - r.started) / 1000, attributes);
  };

  const removers = [
    o.hooks.addCallback(BeforeMultiAgentInvocationEvent, () => void ensureRun()),
    o.hooks.addCallback(BeforeNodeCallEvent, beforeNode),
    o.hooks.addCallback(AfterNodeCallEvent, afterNode),
    o.hooks.addCallback(AfterMultiAgentInvocationEvent, (e) => finish(e.result, undefined)),
    guardErrors(
      o,
      () => run !== undefined,
      (error) => finish(undefined, error),
    ),
  ];
  o.on('transition', onTransition);
  return () => {
    for (const remove of removers) remove();
    o.off('transition', onTransition);
  };
}

/** What the receiver of a handoff got (the transition's `details`: counts and keys, never contents) as event attributes. */
function addHandoffDetails(attributes: Attributes, details: JsonObject): void {
  const { historyBefore, historyAfter, sharedContextKeys, alsoRan, refused } = details;
  if (typeof historyBefore === 'number') attributes[ATTR.handoffHistoryBefore] = historyBefore;
  if (typeof historyAfter === 'number') attributes[ATTR.handoffHistoryAfter] = historyAfter;
  if (typeof sharedContextKeys === 'object' && sharedContextKeys !== null && !Array.isArray(sharedContextKeys)) {
    attributes[ATTR.handoffSharedContextKeys] = Object.entries(sharedContextKeys).flatMap(([node, keys]) =>
      Array.isArray(keys) ? keys.map((k) => `${node}.${String(k)}`) : [],
    );
  }
  if (Array.isArray(alsoRan)) attributes[ATTR.handoffAlsoRan] = alsoRan.map(String);
  if (Array.isArray(refused)) attributes[ATTR.handoffRefused] = refused.map(String);
}
