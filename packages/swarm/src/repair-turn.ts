import type { AccumulatedUsage, Handoff, Message } from '@skein/core';
import { hasRepairNote, narratedHandoff, repairNote } from './narrated-handoff.js';
import { runNode, type MemberEmit, type NodeOutcome, type NodeRun } from './run-node.js';

/** A node execution that may have had a repair turn. */
export interface RepairedOutcome extends NodeOutcome {
  /** The transfer the member announced without calling it, when it got a repair turn. */
  repaired: Handoff | undefined;
  /** Usage of the turn before the repair (the outcome's `result` is the repair turn's). */
  earlierUsage: AccumulatedUsage | undefined;
}

/** True when the announced handoff is enabled now (a disabled one could not be called, so no repair asks for it). */
async function offeredNow(handoff: Handoff, run: NodeRun): Promise<boolean> {
  try {
    return await handoff.isEnabled({ agent: run.agent, invocationState: run.invocationState });
  } catch {
    return false;
  }
}

/**
 * Runs the active member, then, when its final answer announces a transfer to a member it is offered
 * without calling the tool, gives it one repair turn: a user note saying no transfer happened (call
 * the tool or answer yourself), in the same node execution and within what is left of its time
 * budgets. At most one per activation (`itemsSoFar`: what a paused turn already added). The note and
 * the repaired turn are part of the turn's new items, so they are stored and replayed with it.
 */
export async function runWithRepair(
  run: NodeRun,
  enabled: boolean,
  itemsSoFar: readonly Message[],
  emit: MemberEmit,
): Promise<RepairedOutcome> {
  const first = await runNode(run, emit);
  // Field by field rather than a spread: runs for every node, and the spread showed up in CPU profiles.
  const plain: RepairedOutcome = {
    result: first.result,
    newItems: first.newItems,
    error: first.error,
    interrupted: first.interrupted,
    elapsedMs: first.elapsedMs,
    repaired: undefined,
    earlierUsage: undefined,
    tripped: first.tripped,
  };
  const result = first.result;
  if (
    !enabled ||
    first.error !== undefined ||
    first.interrupted ||
    !result ||
    result.stopReason !== 'end_turn' ||
    result.handoff
  )
    return plain;
  if (hasRepairNote(itemsSoFar) || hasRepairNote(first.newItems)) return plain;
  const narrated = narratedHandoff(String(result), run.handoffs);
  const nodeLeft = run.nodeTimeoutMs - first.elapsedMs;
  const runLeft = run.remainingMs - first.elapsedMs;
  if (!narrated || nodeLeft < 1 || runLeft < 1 || !(await offeredNow(narrated, run))) return plain;
  const left = Math.floor(nodeLeft);
  const second = await runNode(
    { ...run, prompt: [repairNote(narrated)], nodeTimeoutMs: left, remainingMs: runLeft },
    emit,
  );
  // A timeout in the repair turn names the member's whole nodeTimeout, not what was left of it.
  const error = second.error?.replace(`the nodeTimeout of ${left} ms`, `the nodeTimeout of ${run.nodeTimeoutMs} ms`);
  return {
    ...second,
    error,
    newItems: [...first.newItems, ...second.newItems],
    elapsedMs: first.elapsedMs + second.elapsedMs,
    repaired: narrated,
    earlierUsage: result.metrics.usage,
  };
}
