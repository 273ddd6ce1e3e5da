/**
 * One run, one story across processes. A run's identity is stored by core already: the `start`
 * transition that opened it (orchestrator id, `seq`, `at`), which a resumed run finds again in its
 * result's transition history. From it come a trace id and a span id (the run's anchor):
 * - a root run's span is started as a child of the anchor, so its trace id is the anchor's;
 * - a run resumed in another process (after a crash, or to answer an interrupt) links to the anchor,
 *   so it points at the original trace.
 * Both carry `skein.run.id` (the anchor's trace id), which finds every part of the run in a backend.
 */
import { createHash } from 'node:crypto';
import { trace, TraceFlags, type Context, type SpanContext } from '@opentelemetry/api';
import type { NodeTransition } from '@skein/core';

/** The key of a run: its orchestrator and the transition that started it. */
export function runKey(orchestratorId: string, start: Pick<NodeTransition, 'seq' | 'at'>): string {
  return `${orchestratorId}\u0000${start.seq}\u0000${start.at}`;
}

/** The span context every part of the run points at. */
export function anchorOf(key: string): SpanContext {
  const digest = createHash('sha256').update(key).digest('hex');
  return { traceId: digest.slice(0, 32), spanId: digest.slice(32, 48), traceFlags: TraceFlags.SAMPLED, isRemote: true };
}

/** A context whose parent is the run's anchor. */
export function anchorContext(base: Context, key: string): Context {
  return trace.setSpanContext(base, anchorOf(key));
}

/**
 * The key of the run a history belongs to: the first of the last group of `start` transitions
 * (a graph with several entry points starts with one per entry point).
 */
export function originKey(orchestratorId: string, transitions: readonly NodeTransition[]): string | undefined {
  let at = -1;
  for (let i = transitions.length - 1; i >= 0; i--) {
    if (transitions[i]?.kind === 'start') {
      at = i;
      break;
    }
  }
  if (at < 0) return undefined;
  while (at > 0 && transitions[at - 1]?.kind === 'start') at--;
  const start = transitions[at] as NodeTransition;
  return runKey(orchestratorId, start);
}
