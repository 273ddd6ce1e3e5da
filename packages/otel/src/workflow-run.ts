import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { MultiAgentResult, NodeTransition } from '@skein/core';
import { ATTR, OPERATION } from './conventions.js';
import { errorMessage, errorType } from './errors.js';
import { abandonNode, type NodeExecution } from './node-spans.js';
import { workflowSpanName } from './options.js';
import { parentOf, type Parent } from './parents.js';
import { anchorContext, anchorOf, originKey, runKey } from './run-anchor.js';
import { countsOf, usageAttributes } from './usage.js';
import type { WorkflowScope } from './workflow-scope.js';

/** One run of a Graph or Swarm: its `invoke_workflow` span (once opened), and the nodes executing under it. */
export interface WorkflowRun {
  span: Span | undefined;
  ctx: Context | undefined;
  readonly parent: Parent | undefined;
  /** The ambient context when the run started (a caller's own span, or an agent-as-tool's). */
  readonly active: Context;
  readonly startTime: number;
  readonly started: number;
  readonly conversationId: string | undefined;
  readonly nodes: Map<string, NodeExecution>;
  /** Executions so far of each node id. */
  readonly counts: Map<string, number>;
  resumed: boolean;
}

/** A run that starts now; its span opens later (openRunSpan). */
export function newWorkflowRun(s: WorkflowScope): WorkflowRun {
  const parent = parentOf(s.o);
  return {
    span: undefined,
    ctx: undefined,
    parent,
    active: context.active(),
    startTime: Date.now(),
    started: performance.now(),
    conversationId: s.t.conversationId ?? parent?.conversationId,
    nodes: new Map(),
    counts: new Map(),
    resumed: false,
  };
}

/** A run nothing else parents: no registered parent, no span in the ambient context. */
const isRoot = (r: WorkflowRun): boolean => r.parent === undefined && trace.getSpan(r.active) === undefined;

/**
 * The run's span, opened now if it is not yet, backdated to the run's start. A root run opened by
 * its `start` transition is a child of the run's anchor (run-anchor.ts), so its trace id is the
 * anchor's.
 */
export function openRunSpan(s: WorkflowScope, r: WorkflowRun, start?: NodeTransition): Span {
  if (r.span) return r.span;
  let parentCtx = r.parent?.ctx ?? r.active;
  const attributes: Attributes = {
    [ATTR.operationName]: OPERATION.invokeWorkflow,
    [ATTR.workflowName]: s.o.id,
    [ATTR.orchestratorKind]: s.kind,
  };
  if (r.conversationId !== undefined) attributes[ATTR.conversationId] = r.conversationId;
  if (start && s.linkResumedRuns && isRoot(r)) {
    const key = runKey(s.o.id, start);
    parentCtx = anchorContext(parentCtx, key);
    attributes[ATTR.runId] = anchorOf(key).traceId;
  }
  const span = s.t.tracer.startSpan(
    workflowSpanName(s.t, s.o),
    { kind: SpanKind.INTERNAL, attributes, startTime: r.startTime },
    parentCtx,
  );
  r.span = span;
  r.ctx = trace.setSpan(parentCtx, span);
  return span;
}

/** A resumed root run links to the anchor of the run it continues, found in its transition history. */
function linkOrigin(s: WorkflowScope, r: WorkflowRun, span: Span, result: MultiAgentResult): void {
  const origin = r.resumed && s.linkResumedRuns && isRoot(r) ? originKey(s.o.id, result.transitions) : undefined;
  if (origin === undefined) return;
  const anchor = anchorOf(origin);
  span.addLink({ context: anchor, attributes: { [ATTR.runId]: anchor.traceId } });
  span.setAttribute(ATTR.runId, anchor.traceId);
}

/**
 * Ends a run's span (and the nodes still open under it) with its result (status, usage, failure,
 * the link to its origin) or the error it threw; then its metrics.
 */
export function endWorkflowRun(
  s: WorkflowScope,
  r: WorkflowRun,
  result: MultiAgentResult | undefined,
  error: unknown,
): void {
  const span = openRunSpan(s, r);
  for (const exec of r.nodes.values()) abandonNode(exec);
  const attributes: Attributes = { [ATTR.operationName]: OPERATION.invokeWorkflow, [ATTR.workflowName]: s.o.id };
  if (result) {
    span.setAttributes({ [ATTR.runStatus]: result.status, ...usageAttributes(countsOf(result.accumulatedUsage)) });
    if (result.status === 'failed') {
      attributes[ATTR.errorType] = 'failed';
      span.setStatus({ code: SpanStatusCode.ERROR, message: result.failureReason ?? 'The run failed.' });
    }
    linkOrigin(s, r, span, result);
  } else {
    const type = errorType(error);
    attributes[ATTR.errorType] = type;
    span.setAttribute(ATTR.errorType, type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
  }
  span.end();
  s.t.operationDuration.record((performance.now() - r.started) / 1000, attributes);
}
