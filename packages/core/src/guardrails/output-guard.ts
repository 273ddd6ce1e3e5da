/**
 * The guardrails' part of a model call, between the answer and everything that sees it
 * (AfterModelCallEvent and so traces, the history, tools): parallel input checks are waited for and
 * the held prompt enters the history; the whole answer is checked (`final: true`) and rewritten,
 * blocked or asked again; a window that stopped the stream is settled the same way.
 */
import { SkeinError } from '../errors/skein-error.js';
import { AfterModelCallEvent } from '../hooks/events.js';
import type { Invocation, LoopHost } from '../loop/loop-host.js';
import type { ModelTurn, StreamAccumulator } from '../loop/stream-accumulator.js';
import type { AttemptLog } from '../loop/attempt-log.js';
import type { ModelStreamEvent } from '../model/model.js';
import type { Message } from '../types/messages.js';
import type { GuardRun } from './guard-run.js';
import type { OutputSubject } from './guardrail.js';
import { OutputWindow, rewriteOutput, type WindowStop } from './output-window.js';
import { runChecks, type Verdict } from './run-checks.js';
import { emitTrip } from './tripwire.js';
import { withText } from './text-blocks.js';

/** Reads a guarded model call's stream into `answer`, handing its events to the watchers through `window`; stops when a window's checks did. */
export async function streamGuarded(
  inv: Invocation,
  events: AsyncIterable<ModelStreamEvent>,
  answer: StreamAccumulator,
  log: AttemptLog | undefined,
  window: OutputWindow,
): Promise<void> {
  for await (const event of events) {
    if (log && log.pending.length > 0) await log.flush(inv);
    const raw = window.take({ type: 'modelStreamEvent', event });
    if (raw) await raw;
    const delta = answer.add(event);
    const shown = delta && window.take(delta);
    if (shown) await shown;
    if (window.stop) return; // leaving the loop closes the model's stream
  }
}

/** The window of a model call's stream, when someone watches it (else only the whole answer is checked). */
export function outputWindow(host: LoopHost, inv: Invocation): OutputWindow | undefined {
  const guards = inv.guards;
  if (!guards || inv.unobserved) return undefined;
  return new OutputWindow(guards, inv.emit, () => openHeldPrompt(host, inv, guards));
}

/**
 * Guards one answer: `'pass'` (the answer, maybe rewritten in place, goes on), or `'retry'` (ask the
 * model again; the feedback waits in `guards.feedback`). A block throws `GuardrailTripped`. A promise
 * only when something must be waited for (held input checks, a window to finish, an async check).
 */
export function guardAnswer(
  host: LoopHost,
  inv: Invocation,
  turn: ModelTurn | undefined,
  window: OutputWindow | undefined,
): 'pass' | 'retry' | Promise<'pass' | 'retry'> {
  const guards = inv.guards as GuardRun;
  if (guards.gate || window) return guardWatched(host, inv, guards, turn, window);
  if (!turn) return 'pass';
  const text = answerText(turn.message);
  if (guards.output.length === 0 || text === '') return 'pass';
  const verdict = runChecks(guards.output, { text, final: true }, guards.scopeAt('output'), rewriteOutput);
  if (verdict instanceof Promise) return verdict.then((v) => settle(host, inv, guards, turn, v, undefined));
  return settle(host, inv, guards, turn, verdict, undefined);
}

/** Guards an answer someone watched (its window shows the rest), or one whose prompt waited for parallel checks. */
async function guardWatched(
  host: LoopHost,
  inv: Invocation,
  guards: GuardRun,
  turn: ModelTurn | undefined,
  window: OutputWindow | undefined,
): Promise<'pass' | 'retry'> {
  if (guards.gate) await openHeldPrompt(host, inv, guards);
  if (window?.stop) return settleStop(host, inv, guards, window.stop, window);
  if (!turn) return 'pass';
  const text = window ? window.text : answerText(turn.message);
  if (guards.output.length === 0 || text === '') {
    await window?.finish(text, undefined);
    return 'pass';
  }
  const subject: OutputSubject = { text, final: true };
  const verdict = await runChecks(guards.output, subject, guards.scopeAt('output'), rewriteOutput);
  if (verdict.action !== 'pass') return settleStop(host, inv, guards, verdict, window);
  settle(host, inv, guards, turn, verdict, window);
  await window?.finish(verdict.subject.text, verdict.by);
  return 'pass';
}

/** What a whole answer's verdict does: a pass (maybe rewritten in place), or a block or retry to settle. */
function settle(
  host: LoopHost,
  inv: Invocation,
  guards: GuardRun,
  turn: ModelTurn,
  verdict: Verdict<OutputSubject>,
  window: OutputWindow | undefined,
): 'pass' | Promise<'retry'> {
  if (verdict.action !== 'pass') return settleStop(host, inv, guards, verdict, window);
  guards.feedback = undefined;
  if (verdict.rewritten || window?.rewritten)
    turn.message.content = withText(turn.message.content, verdict.subject.text);
  return 'pass';
}

/** A block trips the turn (its AfterModelCallEvent carries the trip, not the answer); a retry is counted and its feedback kept. */
async function settleStop(
  host: LoopHost,
  inv: Invocation,
  guards: GuardRun,
  stop: WindowStop,
  window: OutputWindow | undefined,
): Promise<'retry'> {
  const { guardrail } = stop;
  if (stop.action === 'retry' && guards.retries < guards.maxRetries) {
    guards.retries++;
    guards.feedback = `Guardrail ${guardrail} rejected your previous answer: ${stop.feedback} Answer again.`;
    await window?.retract(guardrail, 'retry');
    if (!inv.unobserved)
      await inv.emit({
        type: 'guardrailRetry',
        guardrail,
        where: 'output',
        feedback: stop.feedback,
        attempt: guards.retries,
      });
    await afterModelCall(
      host,
      inv,
      new SkeinError(`Guardrail ${guardrail} asked for another answer.`, {}, 'guardrail_retry'),
    );
    return 'retry';
  }
  const reason =
    stop.action === 'block'
      ? stop.reason
      : `it still asked for another answer after ${guards.maxRetries} retries: ${stop.feedback}`;
  const tripped = guards.trip({ guardrail, reason, where: 'output' }, stop.action === 'block' ? stop.cause : undefined);
  await window?.retract(guardrail, 'block');
  await emitTrip(inv.emit, inv.unobserved, tripped);
  await afterModelCall(host, inv, tripped);
  throw tripped;
}

/** Fires AfterModelCallEvent with `error` in place of the answer (its `retry` is not followed). */
export async function afterModelCall(host: LoopHost, inv: Invocation, error: unknown): Promise<void> {
  if (!host.hooks.has(AfterModelCallEvent)) return;
  await host.hooks.invoke(new AfterModelCallEvent(host.agent, { invocationState: inv.invocationState, error }));
}

/** Waits for the parallel input checks; once they passed, the held prompt enters the history. */
async function openHeldPrompt(host: LoopHost, inv: Invocation, guards: GuardRun): Promise<void> {
  const gate = guards.gate;
  if (!gate) return;
  // Cancelled while the checks run: the prompt was not stored, and nothing waits for them.
  const tripped = inv.aborted && !gate.passed ? guards.tripped : await gate.settled;
  if (tripped) {
    await emitTrip(inv.emit, inv.unobserved, tripped);
    throw tripped;
  }
  if (!gate.passed) return;
  const held = guards.unsent ?? [];
  guards.gate = undefined;
  guards.unsent = undefined;
  for (const message of held) {
    const hooked = host.appendMessage(message);
    if (hooked) await hooked;
    inv.onMessageAdded?.(message);
    if (!inv.unobserved) await inv.emit({ type: 'messageAdded', message });
  }
}

/** The text of an answer, as the window joins it. */
function answerText(message: Message): string {
  let text = '';
  for (const block of message.content) if ('text' in block) text += block.text;
  return text;
}
