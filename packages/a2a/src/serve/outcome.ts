/**
 * What a run of a served target means for its A2A task, as pure functions: how it ended (the
 * answer, the questions it waits for, the failure) and the progress lines its events give.
 */
import {
  isAgentResult,
  type AccumulatedUsage,
  type AgentResult,
  type AgentStreamEvent,
  type Interrupt,
  type MultiAgentResult,
  type MultiAgentStreamEvent,
} from '@skein/core';

/** How one run of a task ended. */
export type Outcome =
  | { kind: 'completed'; text: string; usage: AccumulatedUsage }
  | {
      kind: 'waiting';
      interrupts: Interrupt[];
      text: string;
      usage: AccumulatedUsage;
    }
  | { kind: 'canceled'; text: string; usage: AccumulatedUsage }
  | { kind: 'failed'; reason: string; usage: AccumulatedUsage };

/** The final text of an orchestrator run: a Swarm's `text`, else the last executed node's. */
function orchestratorText(result: MultiAgentResult): string {
  const own = (result as { text?: unknown }).text;
  if (typeof own === 'string') return own;
  const order = (result as { executionOrder?: unknown }).executionOrder;
  if (Array.isArray(order)) {
    for (let i = order.length - 1; i >= 0; i--) {
      const r = result.results[String(order[i])];
      if (r?.status === 'completed') return r.text;
    }
  }
  const done = Object.values(result.results).filter((r) => r.status === 'completed');
  return done[done.length - 1]?.text ?? '';
}

/** The outcome of an agent's or orchestrator's result; `canceled` when the caller asked for it. */
export function outcomeOf(result: AgentResult | MultiAgentResult, cancelRequested: boolean): Outcome {
  if (isAgentResult(result)) {
    const usage = result.metrics.usage;
    const text = String(result);
    if (result.stopReason === 'interrupt')
      return {
        kind: 'waiting',
        interrupts: [...result.interrupts],
        text,
        usage,
      };
    if (cancelRequested || result.stopReason === 'cancelled') return { kind: 'canceled', text, usage };
    if (result.stopReason === 'budget_exceeded') {
      const b = result.budgetExceeded;
      return {
        kind: 'failed',
        reason: `The run's budget is spent${b ? ` (${b.limit}: ${b.spent} of ${b.max})` : ''}.`,
        usage,
      };
    }
    if (result.stopReason === 'handoff')
      return {
        kind: 'failed',
        reason: 'The agent tried to hand the conversation off, which a served agent cannot do.',
        usage,
      };
    return { kind: 'completed', text, usage };
  }
  const usage = result.accumulatedUsage;
  const text = orchestratorText(result);
  if (result.status === 'interrupted' && result.interrupts?.length)
    return { kind: 'waiting', interrupts: [...result.interrupts], text, usage };
  if (cancelRequested || result.status === 'interrupted') return { kind: 'canceled', text, usage };
  if (result.status === 'completed') return { kind: 'completed', text, usage };
  const reason =
    result.failureReason ??
    (result.status === 'budgetExceeded' ? "The run's budget is spent." : `The run ended with status ${result.status}.`);
  return { kind: 'failed', reason, usage };
}

/** A progress line for a status update, with machine-readable details; `undefined` for events not worth one. */
export interface Progress {
  text: string;
  details: Record<string, string>;
}

/** The progress an agent's or orchestrator's event reports; `path` is the node path it came from. */
export function progressOf(event: AgentStreamEvent | MultiAgentStreamEvent, path: string[] = []): Progress | undefined {
  const where = path.join('/');
  switch (event.type) {
    case 'nodeStart': {
      const node = [...path, event.nodeId].join('/');
      return {
        text: `${node} is working`,
        details: { event: 'nodeStart', node },
      };
    }
    case 'nodeStream':
      return progressOf(event.event, [...path, event.nodeId]);
    case 'toolStream': {
      // An agent used as a tool (maybe by one used as a tool): each wrapper adds one nested agent's name.
      let inner: AgentStreamEvent = event.event;
      let layers = 1;
      for (; inner.type === 'toolStream'; layers++) inner = inner.event;
      return progressOf(inner, [...path, ...inner.path.split('/').slice(-layers)]);
    }
    case 'transition':
      if (event.transition.kind !== 'handoff') return undefined;
      return {
        text: `${event.transition.from ?? ''} handed the conversation to ${event.transition.to ?? ''}`,
        details: {
          event: 'handoff',
          from: event.transition.from ?? '',
          to: event.transition.to ?? '',
        },
      };
    case 'toolStart':
      return {
        text: `${where ? `${where} ` : ''}calls ${event.toolUse.name}`,
        details: {
          event: 'toolStart',
          tool: event.toolUse.name,
          ...(where ? { node: where } : {}),
        },
      };
    default:
      return undefined;
  }
}
