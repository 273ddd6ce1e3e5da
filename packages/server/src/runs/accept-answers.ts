/**
 * Answers to what waits, decided before anything is stored or run: `authorizeAnswer` must let the
 * principal answer each pending interrupt (403), and the answers must fit what waits (422): each id one
 * the waiting turn handed out (its tag: an answer replayed from an earlier turn, or an id from another
 * conversation, does not fit), every pending interrupt answered at once. Gives the prompt with core's ids.
 */
import type { Interrupt, JsonValue, Principal } from '@skein/core';
import { ProblemError } from '../http/problem.js';
import type { ServerAction } from '../options.js';
import type { ServerContext } from '../server-context.js';
import type { CurrentTurn, TurnPrompt } from '../store/conversation-record.js';
import { coreIdOf, publicInterrupts } from './interrupt-ids.js';
import { answersPrompt } from './prompt.js';
import { pendingOf, type Target } from './target.js';

/** Who answers, and the turn that waits. */
export interface Answering {
  request: { principal: Principal; conversationId: string; door: ServerAction };
  waiting: CurrentTurn | undefined;
}

async function checkAllowed(ctx: ServerContext, pending: readonly Interrupt[], answering: Answering): Promise<void> {
  const rule = ctx.options.authorizeAnswer;
  if (!rule) return;
  const { principal, conversationId, door } = answering.request;
  for (const interrupt of pending) {
    if (await rule({ principal, interrupt, conversationId, door })) continue;
    throw new ProblemError(
      403,
      'answer-forbidden',
      'Not allowed to answer',
      `Conversation ${conversationId}: ${interrupt.name} ${interrupt.id} waits for an answer this principal may not give (authorizeAnswer); someone allowed to answer it must.`,
      { field: 'body.answers' },
    );
  }
}

/** Checks `answers` against what waits and who gives them; the turn's prompt with core's interrupt ids. */
export async function acceptAnswers(
  ctx: ServerContext,
  target: Target,
  answers: Record<string, JsonValue>,
  answering: Answering,
): Promise<TurnPrompt> {
  const tag = answering.waiting?.tag;
  const pending = await pendingOf(target);
  const shown = publicInterrupts(pending, answering.waiting);
  await checkAllowed(ctx, shown, answering);
  const byCoreId = new Map<string, JsonValue>();
  const unknown: string[] = [];
  for (const [id, answer] of Object.entries(answers)) {
    const core = coreIdOf(id, tag);
    if (core !== undefined && pending.some((p) => p.id === core)) byCoreId.set(core, answer);
    else unknown.push(id);
  }
  const missing = shown.filter((_, i) => !byCoreId.has(pending[i]?.id ?? '')).map((i) => i.id);
  if (unknown.length === 0 && missing.length === 0) return answersPrompt(Object.fromEntries(byCoreId), tag);
  const parts = [
    unknown.length > 0 ? `no interrupt ${unknown.map((u) => JSON.stringify(u.slice(0, 80))).join(', ')} waits` : '',
    missing.length > 0 ? `${missing.join(', ')} still need an answer` : '',
  ].filter((p) => p !== '');
  throw new ProblemError(
    422,
    'answers-mismatch',
    'The answers do not fit what waits',
    `Conversation ${answering.request.conversationId}: ${parts.join('; ')}. Answer every pending interrupt at once, with the ids GET .../pending lists.`,
    { field: 'body.answers', pending: shown.map((i) => i.id) },
  );
}
