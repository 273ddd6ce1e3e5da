/**
 * Interrupts of an agent conversation (a virtual object) as Restate awakeables: virtual objects have
 * no durable promises, so a paused `send` creates one awakeable per interrupt, writes the interrupts
 * and the awakeable ids to the object's state (`pending`), and awaits them suspended. The shared
 * `respond` handler resolves them by interrupt id (a client holding an awakeable id may also use
 * Restate's `/restate/awakeables/<id>/resolve`). The conversation keeps its single writer: further
 * messages to it queue until the answers came and the paused message finished.
 */
import { RestatePromise, type ObjectContext, type ObjectSharedContext } from '@restatedev/restate-sdk';
import type { Interrupt, InterruptResponseBlock, JsonValue } from '@skein/core';
import { answersOf, matchPending, resumePrompt, type PendingReply } from './answers.js';

interface PendingState {
  interrupts: Interrupt[];
  /** Awakeable id by interrupt id. */
  awakeables: Record<string, string>;
}

const PENDING = 'pending';

/** Records the pause and waits (suspended, holding no worker) until every interrupt has an answer. */
export async function waitForObjectAnswers(
  ctx: ObjectContext,
  interrupts: readonly Interrupt[],
): Promise<InterruptResponseBlock[]> {
  const waits = interrupts.map(() => ctx.awakeable<JsonValue>());
  ctx.set<PendingState>(PENDING, {
    interrupts: [...interrupts],
    awakeables: Object.fromEntries(interrupts.map((i, k) => [i.id, waits[k]?.id ?? ''])),
  });
  const values = await RestatePromise.all(waits.map((w) => w.promise));
  ctx.clear(PENDING);
  return resumePrompt(interrupts, values);
}

/** The interrupts the conversation's current message waits for. */
export async function objectPendingOf(ctx: ObjectSharedContext): Promise<PendingReply> {
  return { interrupts: (await ctx.get<PendingState>(PENDING))?.interrupts ?? [] };
}

/** Resolves the awakeables of the answered interrupts. */
export async function objectRespondTo(ctx: ObjectSharedContext, input: unknown): Promise<PendingReply> {
  const answers = answersOf(input);
  const state = (await ctx.get<PendingState>(PENDING)) ?? { interrupts: [], awakeables: {} };
  matchPending(`Conversation ${ctx.key}`, state.interrupts, answers);
  for (const answer of answers) {
    const id = state.awakeables[answer.interruptId];
    if (id) ctx.resolveAwakeable(id, answer.response);
  }
  const answeredIds = new Set(answers.map((a) => a.interruptId));
  return { interrupts: state.interrupts.filter((i) => !answeredIds.has(i.id)) };
}
