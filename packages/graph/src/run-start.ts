/** How a run opens, as a pure function: a fresh start, a resume from the session, or answers given. */
import { InterruptResponseError, type InterruptResponse, type NewTransition } from '@skein/core';
import { pendingInterrupts, resumePaused } from './pause.js';
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
