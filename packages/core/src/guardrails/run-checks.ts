/**
 * Runs a list of guardrails on one subject, in order: each sees the subject as the ones before it
 * rewrote it; the first block or retry ends the list. Synchronous checks are answered synchronously
 * (a promise only once a check returns one). A check that throws, answers something that is not a
 * decision, or does not answer within its timeout blocks: guardrails fail closed.
 */
import { errorMessage } from '../errors/error-message.js';
import { CheckContext, type CheckScope } from './check-context.js';
import type { Guardrail, GuardrailDecision, GuardrailSubject } from './guardrail.js';

/** What the list came to: the subject (rewritten or not), or the first block or retry. */
export type Verdict<S> =
  | { readonly action: 'pass'; readonly subject: S; readonly rewritten: boolean; readonly by?: string | undefined }
  | { readonly action: 'block'; readonly guardrail: string; readonly reason: string; readonly cause?: unknown }
  | { readonly action: 'retry'; readonly guardrail: string; readonly feedback: string };

/** Applies a rewrite to a subject: the new subject, or a string saying why the rewrite does not fit here. */
export type Rewrite<S> = (subject: S, decision: GuardrailDecision & { action: 'rewrite' }) => S | string;

/** Default `timeoutMs` of a guardrail. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** Runs `guardrails` on `subject` (each check's context in `scope`); a promise only when a check answered with one. */
export function runChecks<S extends GuardrailSubject>(
  guardrails: readonly Guardrail<S>[],
  subject: S,
  scope: CheckScope,
  rewrite: Rewrite<S>,
): Verdict<S> | Promise<Verdict<S>> {
  return runFrom(guardrails, 0, subject, undefined, scope, rewrite);
}

function runFrom<S extends GuardrailSubject>(
  guardrails: readonly Guardrail<S>[],
  from: number,
  subject: S,
  by: string | undefined,
  scope: CheckScope,
  rewrite: Rewrite<S>,
): Verdict<S> | Promise<Verdict<S>> {
  for (let i = from; i < guardrails.length; i++) {
    const guardrail = guardrails[i] as Guardrail<S>;
    const answered = ask(guardrail, subject, scope);
    if (answered instanceof Promise) {
      return answered.then((decision) => {
        const next = apply(guardrail, decision, subject, rewrite);
        if (next.action !== 'pass') return next;
        return runFrom(guardrails, i + 1, next.subject, next.rewritten ? guardrail.name : by, scope, rewrite);
      });
    }
    const next = apply(guardrail, answered, subject, rewrite);
    if (next.action !== 'pass') return next;
    subject = next.subject;
    if (next.rewritten) by = guardrail.name;
  }
  return { action: 'pass', subject, rewritten: by !== undefined, by };
}

/** A check's answer, or the block it becomes when it throws or times out. */
type Answer = GuardrailDecision | { action: 'failed'; reason: string; cause: unknown };

function ask<S extends GuardrailSubject>(
  guardrail: Guardrail<S>,
  subject: S,
  scope: CheckScope,
): Answer | Promise<Answer> {
  let answer: GuardrailDecision | Promise<GuardrailDecision>;
  try {
    answer = guardrail.check(subject, new CheckContext(scope, guardrail.name, subject));
  } catch (error) {
    return failed(error);
  }
  if (!isThenable(answer)) return answer;
  const ms = guardrail.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise<Answer>((resolve) => {
    const timer = setTimeout(
      () => resolve({ action: 'failed', reason: `it did not answer within ${ms} ms`, cause: undefined }),
      ms,
    );
    Promise.resolve(answer).then(
      (decision) => (clearTimeout(timer), resolve(decision)),
      (error: unknown) => (clearTimeout(timer), resolve(failed(error))),
    );
  });
}

const failed = (error: unknown): Answer => ({
  action: 'failed',
  reason: `it failed: ${errorMessage(error)}`,
  cause: error,
});

function isThenable(value: unknown): value is PromiseLike<GuardrailDecision> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** What one answer does to the subject. */
function apply<S>(
  guardrail: Guardrail<S & GuardrailSubject>,
  answer: Answer,
  subject: S,
  rewrite: Rewrite<S>,
): Verdict<S> {
  const name = guardrail.name;
  const action = typeof answer === 'object' && answer !== null ? answer.action : undefined;
  if (action === 'pass') return { action: 'pass', subject, rewritten: false };
  if (action === 'failed') {
    const { reason, cause } = answer as { reason: string; cause: unknown };
    return { action: 'block', guardrail: name, reason, cause };
  }
  if (action === 'block') return { action: 'block', guardrail: name, reason: textOf(answer, 'reason') };
  if (action === 'retry') return { action: 'retry', guardrail: name, feedback: textOf(answer, 'feedback') };
  if (action === 'rewrite') {
    const next = rewrite(subject, answer as GuardrailDecision & { action: 'rewrite' });
    if (typeof next !== 'string') return { action: 'pass', subject: next, rewritten: true };
    return { action: 'block', guardrail: name, reason: `it answered a rewrite that does not fit: ${next}` };
  }
  const shown = JSON.stringify(answer) ?? String(answer);
  return {
    action: 'block',
    guardrail: name,
    reason: `it answered ${shown.slice(0, 80)}, which is no decision (pass, rewrite, block or retry)`,
  };
}

/** A decision's text field, as a string whatever the check put there. */
function textOf(answer: Answer, key: 'reason' | 'feedback'): string {
  const value = (answer as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : String(value ?? '');
}
