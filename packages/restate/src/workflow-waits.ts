/**
 * Interrupts of a workflow run as Restate durable promises. When a run pauses, its interrupts are
 * written to the workflow's state (`pending`, readable by the shared `pending` handler) and the run
 * awaits one durable promise per interrupt; Restate suspends the invocation, so nothing holds a
 * worker while a person thinks. The shared `respond` handler (or any Restate client) resolves a
 * promise; when all of the pause's promises are resolved Restate resumes the run on any worker,
 * which replays its journal up to the pause and goes on with the answers.
 *
 * Promises are named per pause (`interrupt <round> <id>`): a durable promise resolves once, and a
 * later pause may ask again with the same interrupt id.
 */
import { RestatePromise, type WorkflowContext, type WorkflowSharedContext } from '@restatedev/restate-sdk';
import type { Interrupt, InterruptResponseBlock, JsonValue } from '@skein/core';
import { answersOf, matchPending, resumePrompt, type PendingReply } from './answers.js';

interface PendingState {
  round: number;
  interrupts: Interrupt[];
}

const PENDING = 'pending';
const promiseName = (round: number, id: string): string => `interrupt ${round} ${id}`;

/** Records the pause and waits (suspended, holding no worker) until every interrupt has an answer. */
export async function waitForAnswers(
  ctx: WorkflowContext,
  round: number,
  interrupts: readonly Interrupt[],
): Promise<InterruptResponseBlock[]> {
  ctx.set<PendingState>(PENDING, { round, interrupts: [...interrupts] });
  const values = await RestatePromise.all(
    interrupts.map((i) => ctx.promise<JsonValue>(promiseName(round, i.id)).get()),
  );
  return resumePrompt(interrupts, values);
}

/** Marks the run as waiting for nothing. */
export function clearPending(ctx: WorkflowContext): void {
  ctx.clear(PENDING);
}

/** The interrupts of the current pause that have no answer yet. */
export async function pendingOf(ctx: WorkflowSharedContext): Promise<PendingReply> {
  const state = await ctx.get<PendingState>(PENDING);
  if (!state) return { interrupts: [] };
  const answered = await Promise.all(
    state.interrupts.map((i) => ctx.promise<JsonValue>(promiseName(state.round, i.id)).peek()),
  );
  return { interrupts: state.interrupts.filter((_, k) => answered[k] === undefined) };
}

/** Resolves the durable promises of the answered interrupts; answers what still waits. */
export async function respondTo(ctx: WorkflowSharedContext, input: unknown): Promise<PendingReply> {
  const answers = answersOf(input);
  const state = (await ctx.get<PendingState>(PENDING)) ?? { round: 0, interrupts: [] };
  const { interrupts: open } = await pendingOf(ctx);
  matchPending(`Run ${ctx.key}`, open, answers);
  for (const answer of answers)
    await ctx.promise<JsonValue>(promiseName(state.round, answer.interruptId)).resolve(answer.response);
  const answeredIds = new Set(answers.map((a) => a.interruptId));
  return { interrupts: open.filter((i) => !answeredIds.has(i.id)) };
}
