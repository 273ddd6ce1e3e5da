import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { AfterNodeCallEvent } from '@skein/core';
import { ATTR, EVENT } from './conventions.js';
import { clearParent, setParent, type Parent } from './parents.js';
import { countsOf, usageAttributes } from './usage.js';
import type { WorkflowScope } from './workflow-scope.js';

/** One execution of a node: its `execute_node {id}` span, and the agent or orchestrator it parents. */
export interface NodeExecution {
  readonly span: Span;
  readonly started: number;
  readonly nested: { target: object; parent: Parent } | undefined;
}

/**
 * Starts the `execute_node {id}` span of a node's `count`th execution under the run's span (`ctx`);
 * it becomes the parent of what the node runs.
 */
export function startNode(
  s: WorkflowScope,
  nodeId: string,
  count: number,
  ctx: Context | undefined,
  conversationId: string | undefined,
): NodeExecution {
  const attributes: Attributes = { [ATTR.nodeId]: nodeId, [ATTR.nodeExecution]: count, [ATTR.workflowName]: s.o.id };
  if (conversationId !== undefined) attributes[ATTR.conversationId] = conversationId;
  const span = s.t.tracer.startSpan(`execute_node ${nodeId}`, { kind: SpanKind.INTERNAL, attributes }, ctx);
  const target = s.targets.get(nodeId);
  const nested = target ? { target, parent: { ctx: trace.setSpan(ctx as Context, span), conversationId } } : undefined;
  if (nested) setParent(nested.target, nested.parent);
  return { span, started: performance.now(), nested };
}

/** Ends a node's span with its result (status, usage, failure, interrupts), and its metrics. */
export function endNode(s: WorkflowScope, exec: NodeExecution, e: AfterNodeCallEvent): void {
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
    [ATTR.workflowName]: s.o.id,
    [ATTR.nodeId]: e.nodeId,
    [ATTR.nodeStatus]: result.status,
  };
  s.t.nodeExecutions.add(1, attributes);
  s.t.nodeDuration.record((performance.now() - exec.started) / 1000, attributes);
}

/** Ends the span of a node that stopped without AfterNodeCallEvent: paused before it ran, or cut by the run's end. */
export function abandonNode(exec: NodeExecution): void {
  exec.span.addEvent(EVENT.interrupt);
  exec.span.end();
  if (exec.nested) clearParent(exec.nested.target, exec.nested.parent);
}
