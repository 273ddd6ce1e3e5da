/** How a run opens, as pure functions: a fresh start, a resume from the session, or answers given; and the run's document. */
import { InterruptResponseError, type InterruptResponse, type JsonObject, type NewTransition } from '@skein/core';
import type { GraphConfig } from './graph-types.js';
import { pendingInterrupts, resumePaused } from './paused-nodes.js';
import type { RunState } from './run-state.js';

/**
 * The transitions that open a run: `start` at every entry point for a fresh run (`resumed`
 * undefined), `resume` for every waiting node of a resumed one, and with answers, the answered nodes'
 * `resume` first (this gives them their answers; throws `InterruptResponseError`, changing nothing,
 * when nothing waits or the answers do not fit).
 */
export function openingTransitions(
  graphId: string,
  entryPoints: readonly string[],
  resumed: RunState | undefined,
  responses: readonly InterruptResponse[] | undefined,
): NewTransition[] {
  const resume = (nodeId: string, reason: string): NewTransition => ({
    from: null,
    to: nodeId,
    kind: 'resume',
    reason,
  });
  if (!responses) {
    if (!resumed) return entryPoints.map((id) => ({ from: null, to: id, kind: 'start', reason: 'entry point' }));
    return resumed.waiting.map((a) => resume(a.nodeId, 'resumed from the session'));
  }
  if (!resumed || pendingInterrupts(resumed).length === 0) {
    throw new InterruptResponseError(
      `Graph ${graphId} waits for no answer; invoke it with a task instead of interruptResponse blocks.`,
      [],
    );
  }
  const answered = resumePaused(resumed, responses);
  const others = resumed.waiting.slice(answered.length);
  return [...answered, ...others.map((a) => resume(a.nodeId, 'resumed with the answered nodes'))];
}

/** The run's own document, stored with its first step: nodes, edges (one per source; `join` when the edge waits for several) and entry points. */
export function graphShape(config: GraphConfig): JsonObject {
  return {
    nodes: [...config.nodes.keys()],
    edges: config.edges.flatMap((e) =>
      e.from.map((from) => ({ from, to: e.to, conditional: e.condition !== undefined, join: e.join })),
    ),
    entryPoints: [...config.entryPoints],
  };
}
