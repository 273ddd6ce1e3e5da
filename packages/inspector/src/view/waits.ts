import type { NodeTransition } from '@skein/core';
import type { NodeExecution, WaitView } from './run-types.js';

/**
 * The waits of a run: from each interrupt (or the end of work still running beside it, whichever is
 * later) to the next resume. Overlapping waits (two nodes asking in one pause) are one. Pure.
 */
export function waitsOf(
  transitions: readonly NodeTransition[],
  executions: readonly NodeExecution[],
  t0: number,
  spanMs: number,
): WaitView[] {
  const at = (t: NodeTransition): number => Math.max(0, Date.parse(t.at) - t0);
  const waits: WaitView[] = [];
  transitions.forEach((t, i) => {
    if (t.kind !== 'interrupt') return;
    const resume = transitions.slice(i + 1).find((r) => r.kind === 'resume');
    const endMs = resume ? at(resume) : spanMs;
    // Work that ran on beside the pause (a parallel branch) ends before the wait starts.
    const busyUntil = Math.max(
      at(t),
      ...executions
        .filter((e) => e.startMs < endMs && e.durationMs !== undefined && e.startMs + e.durationMs <= endMs)
        .map((e) => e.startMs + (e.durationMs ?? 0)),
    );
    if (endMs <= busyUntil) return;
    const last = waits.at(-1);
    if (last && busyUntil <= last.endMs) last.endMs = Math.max(last.endMs, endMs);
    else waits.push({ startMs: busyUntil, endMs, reason: t.reason, open: resume === undefined });
  });
  return waits;
}
