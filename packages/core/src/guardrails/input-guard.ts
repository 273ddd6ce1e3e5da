/**
 * Input guardrails: the prompt's messages are checked before they enter the history and before any
 * model call. Blocking checks run first (a rewrite changes what is stored and sent); parallel ones
 * then start beside the first model call, with the prompt held back (sent to the model, not stored,
 * no text shown, no tool run) until they all passed.
 */
import type { Message } from '../types/messages.js';
import type { GuardrailTripped } from '../errors/guardrail-errors.js';
import type { GuardRun, InputGate } from './guard-run.js';
import type { GuardrailDecision, InputSubject } from './guardrail.js';
import { runChecks, type Verdict } from './run-checks.js';
import { withText } from './text-blocks.js';

/** What the input checks came to: the messages to append (maybe rewritten), or the trip. */
export type InputOutcome = { messages: Message[]; held: boolean } | { tripped: GuardrailTripped };

/**
 * Checks `messages` (a prompt's). With parallel checks and `canHold` (nothing else to append first),
 * the prompt is held in `guards.unsent` and the checks run on (`guards.gate`): `held: true`. A promise
 * only when a check answered with one (or parallel checks run).
 */
export function checkInput(
  guards: GuardRun,
  messages: Message[],
  canHold: boolean,
): InputOutcome | Promise<InputOutcome> {
  const subject = inputSubject(messages);
  if (guards.input.length === 0) return afterBlocking(guards, subject, canHold);
  const verdict = runChecks(guards.input, subject, guards.scopeAt('input'), rewriteInput);
  if (verdict instanceof Promise) return verdict.then((v) => afterVerdict(guards, subject, v, canHold));
  return afterVerdict(guards, subject, verdict, canHold);
}

function afterVerdict(
  guards: GuardRun,
  subject: InputSubject,
  verdict: Verdict<InputSubject>,
  canHold: boolean,
): InputOutcome | Promise<InputOutcome> {
  const tripped = tripOf(guards, verdict);
  if (tripped) return { tripped };
  return afterBlocking(guards, verdict.action === 'pass' ? verdict.subject : subject, canHold);
}

/** After the blocking checks passed: done, or the parallel ones started (held beside the model, or awaited). */
function afterBlocking(
  guards: GuardRun,
  subject: InputSubject,
  canHold: boolean,
): InputOutcome | Promise<InputOutcome> {
  const checked = subject.messages as Message[];
  if (guards.parallelInput.length === 0) return { messages: checked, held: false };
  return startParallel(guards, subject, checked, canHold);
}

async function startParallel(
  guards: GuardRun,
  subject: InputSubject,
  checked: Message[],
  canHold: boolean,
): Promise<InputOutcome> {
  const running = runParallel(guards, subject);
  if (!canHold) {
    const tripped = await running;
    return tripped ? { tripped } : { messages: checked, held: false };
  }
  const gate: InputGate = { settled: running, passed: false };
  void running.then((tripped) => {
    if (tripped) guards.abort(tripped);
    else gate.passed = true;
  });
  guards.gate = gate;
  guards.unsent = checked;
  return { messages: checked, held: true };
}

/** The parallel checks: the trip, or `undefined` when all passed (a rewrite or retry cannot apply any more: it blocks). */
async function runParallel(guards: GuardRun, subject: InputSubject): Promise<GuardrailTripped | undefined> {
  const verdict = await runChecks(
    guards.parallelInput,
    subject,
    guards.scopeAt('input'),
    () => 'a parallel guardrail runs while the model already reads the prompt: it can pass or block',
  );
  return tripOf(guards, verdict);
}

/** The trip a verdict makes (an input cannot be asked again: a retry blocks, with its feedback as the reason). */
function tripOf(guards: GuardRun, verdict: Verdict<InputSubject>): GuardrailTripped | undefined {
  if (verdict.action === 'pass') return undefined;
  const reason = verdict.action === 'block' ? verdict.reason : verdict.feedback;
  const cause = verdict.action === 'block' ? verdict.cause : undefined;
  return guards.trip({ guardrail: verdict.guardrail, reason, where: 'input' }, cause);
}

/** The subject of a prompt's messages. */
export function inputSubject(messages: readonly Message[]): InputSubject {
  const texts: string[] = [];
  for (const m of messages) for (const b of m.content) if ('text' in b) texts.push(b.text);
  return { text: texts.join('\n\n'), messages };
}

/**
 * A rewrite of the prompt's text: it goes to the first message holding text (replacing its text
 * blocks; images and documents stay) and the other messages lose theirs; a prompt without text gets
 * it in its last message.
 */
export function rewriteInput(
  subject: InputSubject,
  decision: GuardrailDecision & { action: 'rewrite' },
): InputSubject | string {
  if (!('text' in decision) || typeof decision.text !== 'string')
    return 'an input guardrail rewrites with { action: "rewrite", text }';
  const { text } = decision;
  const at = subject.messages.findIndex((m) => m.content.some((b) => 'text' in b));
  const target = at >= 0 ? at : subject.messages.length - 1;
  const messages = subject.messages.map((m, i): Message => {
    if (i === target) return { ...m, content: withText(m.content, text) };
    if (!m.content.some((b) => 'text' in b)) return m;
    return { ...m, content: m.content.filter((b) => !('text' in b)) };
  });
  return { text, messages };
}
