/**
 * What watchers see of a guarded model answer as it streams. Text is shown window by window: a window
 * (about `windowChars`, cut at a sentence or line end) is checked by the output guardrails before it
 * is shown, so a window they block or rewrite is never shown as the model wrote it. While parallel
 * input checks run, nothing is shown at all. Raw `modelStreamEvent` content deltas are not handed on
 * (they would show unchecked text); the answer's other events are.
 */
import type { AgentEventData } from '../agent/agent-events.js';
import type { GuardRun } from './guard-run.js';
import type { GuardrailDecision, OutputSubject } from './guardrail.js';
import { runChecks, type Verdict } from './run-checks.js';

type Emit = (event: AgentEventData) => Promise<void> | undefined;

/** A window that was not shown: the first block or retry of its checks. */
export type WindowStop = Exclude<Verdict<OutputSubject>, { action: 'pass' }>;

/** The stream of one model answer, as guardrails let watchers see it. */
export class OutputWindow {
  /** The text shown so far (as shown: windows rewritten). */
  #sent = '';
  /** The text not shown yet. */
  #pending = '';
  /** Events that wait for parallel input checks. */
  #held: AgentEventData[] | undefined;
  #rewritten = false;
  /** Set when a window's checks blocked or asked for a retry: the caller stops reading the model. */
  stop: WindowStop | undefined;
  readonly #guards: GuardRun;
  readonly #emit: Emit;
  readonly #opened: () => Promise<void>;

  /** `opened`: what to do first once parallel input checks passed (their held prompt enters the history). */
  constructor(guards: GuardRun, emit: Emit, opened: () => Promise<void>) {
    this.#guards = guards;
    this.#emit = emit;
    this.#opened = opened;
  }

  /** The answer's whole text so far, as the checks left it. */
  get text(): string {
    return this.#sent + this.#pending;
  }

  /** True when a window was rewritten (the answer's text is then `text`, not what the model sent). */
  get rewritten(): boolean {
    return this.#rewritten;
  }

  /** Takes one event of the model call; a promise when a reader or a check must be waited for. */
  take(event: AgentEventData): Promise<void> | undefined {
    const gate = this.#guards.gate;
    if (event.type === 'textDelta') this.#pending += event.data;
    else if (event.type === 'modelStreamEvent' && 'contentBlockDelta' in event.event) return undefined;
    else if (this.#held || gate) (this.#held ??= []).push(event);
    else return this.#emit(event);
    if (gate) return gate.passed ? this.#opened().then(() => this.release().then(() => this.#advance())) : undefined;
    if (this.#held) return this.release().then(() => this.#advance());
    return this.#advance();
  }

  /** Hands on the events held for the input checks (call once they passed). */
  async release(): Promise<void> {
    const held = this.#held;
    this.#held = undefined;
    if (held) for (const event of held) await this.#emit(event);
  }

  /**
   * Shows the rest of the answer once its whole text was checked: what was not shown yet, or, when the
   * final check rewrote the text, the new text (retracting what was shown of the old).
   */
  async finish(final: string, guardrail: string | undefined): Promise<void> {
    await this.release();
    if (guardrail === undefined) {
      if (this.#pending !== '') await this.#show(this.#pending);
    } else {
      await this.retract(guardrail, 'rewrite');
      if (final !== '') await this.#show(final);
    }
    this.#pending = '';
  }

  /** Tells the watchers to drop what this answer showed (a block, a retry, a rewrite of the whole). */
  async retract(guardrail: string, action: 'block' | 'retry' | 'rewrite'): Promise<void> {
    this.#held = undefined;
    if (this.#sent === '') return;
    this.#sent = '';
    await this.#emit({ type: 'textRetracted', guardrail, action });
  }

  /** Shows every full window of the pending text (without output guardrails: all of it). */
  #advance(): Promise<void> | undefined {
    const guards = this.#guards;
    if (guards.output.length === 0) return this.#pending === '' ? undefined : this.#showPending(this.#pending.length);
    const cut = windowEnd(this.#pending, guards.windowChars);
    if (cut < 0) return undefined;
    const subject: OutputSubject = {
      text: this.#pending.slice(0, cut),
      final: false,
    };
    const verdict = runChecks(guards.output, subject, guards.scopeAt('output'), rewriteOutput);
    if (verdict instanceof Promise) return verdict.then((v) => this.#after(v, cut));
    return this.#after(verdict, cut);
  }

  #after(verdict: Verdict<OutputSubject>, cut: number): Promise<void> | undefined {
    if (verdict.action !== 'pass') {
      this.stop = verdict;
      return undefined;
    }
    if (verdict.rewritten) this.#rewritten = true;
    this.#pending = this.#pending.slice(cut);
    const shown = this.#show(verdict.subject.text);
    if (shown) return shown.then(() => this.#advance());
    return this.#advance();
  }

  #showPending(cut: number): Promise<void> | undefined {
    const text = this.#pending.slice(0, cut);
    this.#pending = this.#pending.slice(cut);
    return this.#show(text);
  }

  #show(text: string): Promise<void> | undefined {
    if (text === '') return undefined;
    this.#sent += text;
    return this.#emit({ type: 'textDelta', data: text });
  }
}

/** A rewrite of output text: `{ action: 'rewrite', text }`. */
export function rewriteOutput(
  subject: OutputSubject,
  decision: GuardrailDecision & { action: 'rewrite' },
): OutputSubject | string {
  if (!('text' in decision) || typeof decision.text !== 'string')
    return 'an output guardrail rewrites with { action: "rewrite", text }';
  return { text: decision.text, final: subject.final };
}

/**
 * Where the first window of `text` ends: after its last sentence or line end once it holds `size`
 * characters; past four times that without one, at its last space (or all of it). -1: not yet.
 */
function windowEnd(text: string, size: number): number {
  if (text.length < size) return -1;
  for (let i = text.length - 1; i > 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10) return i + 1; // a line end
    if ((c === 32 || c === 9) && isSentenceEnd(text.charCodeAt(i - 1))) return i + 1;
  }
  if (text.length < size * 4) return -1;
  const space = text.lastIndexOf(' ');
  return space > 0 ? space + 1 : text.length;
}

/** `.`, `!`, `?`, `…` and their full-width forms. */
function isSentenceEnd(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 0x2026 || c === 0x3002 || c === 0xff01 || c === 0xff1f;
}
