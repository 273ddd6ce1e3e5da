/**
 * The guardrail contract: a named check beside the model that sees what enters a turn (the input
 * messages), what the model says (windows of the streamed text, then the whole answer) and what a
 * tool gets and gives (its input before it runs, its result after), and answers pass, rewrite,
 * block (a tripwire: the turn ends with `GuardrailTripped`) or retry (the model is asked again with
 * the feedback). Plain types: the loop runs them (see `guard-run.ts`), `@skein/guardrails` has
 * ready-made ones.
 */
import type { GuardrailWhere } from '../errors/guardrail-errors.js';
import type { Principal } from '../doors/principal.js';
import type { Model } from '../model/model.js';
import type { AgentState } from '../state/agent-state.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { JsonValue } from '../types/json.js';
import type { Message, ToolResult } from '../types/messages.js';

/** What an input guardrail checks: the text of the new prompt, and its messages. */
export interface InputSubject {
  /** The text blocks of the prompt's messages, joined with a blank line. */
  readonly text: string;
  /** The messages the prompt appends to the history (not the history before it). */
  readonly messages: readonly Message[];
}

/** What an output guardrail checks: a window of the streamed text (`final: false`) or a whole answer (`final: true`). */
export interface OutputSubject {
  readonly text: string;
  /** `false`: a window of text about to be streamed; `true`: the whole text of one model answer. */
  readonly final: boolean;
}

/** What a tool guardrail checks: a call before it runs, or its result after. */
export type ToolSubject =
  | { readonly tool: string; readonly input: JsonValue; readonly phase: 'before' }
  | { readonly tool: string; readonly input: JsonValue; readonly result: ToolResult; readonly phase: 'after' };

/** Anything a guardrail can be asked about. */
export type GuardrailSubject = InputSubject | OutputSubject | ToolSubject;

/**
 * A guardrail's answer. `rewrite` replaces what it checked: `text` for input and output, `input`
 * (before) or `result` (after) for a tool. `block` ends the turn (a tripwire); `retry` asks the model
 * again with `feedback` (output), or gives the model `feedback` as the tool's error result (tool).
 */
export type GuardrailDecision =
  | { readonly action: 'pass' }
  | { readonly action: 'rewrite'; readonly text: string }
  | { readonly action: 'rewrite'; readonly input: JsonValue }
  | { readonly action: 'rewrite'; readonly result: ToolResult }
  | { readonly action: 'block'; readonly reason: string }
  | { readonly action: 'retry'; readonly feedback: string };

/**
 * The agent a guardrail checks, as a guardrail may read it: the agent itself (an `AgentHandle`), seen
 * through what a check needs. Kept apart from `AgentHandle` so the agent interface can name guardrails.
 */
export interface GuardrailAgent {
  readonly name: string;
  readonly id: string;
  readonly model: Model;
  /** The conversation so far. */
  readonly messages: readonly Message[];
  readonly state: AgentState;
}

/** What a guardrail knows about the run it checks. */
export interface GuardrailContext {
  /** Where it checks. */
  readonly where: GuardrailWhere;
  /** The agent whose turn it checks (for an orchestrator's own input, its entry agent or none). */
  readonly agent: GuardrailAgent | undefined;
  /** Where in the run tree: the agent's name, or the node path in an orchestrator (`desk/refund`). */
  readonly path: string;
  /** Who asked (what a server's `authorize` returned), when the caller said. */
  readonly principal: Principal | undefined;
  /** The values given to `invoke(prompt, { invocationState })`. */
  readonly invocationState: InvocationState;
  /** Aborted when the turn ends (a block elsewhere, a cancellation): stop work then. */
  readonly signal: AbortSignal;
  /**
   * The same for this check when a run resumed after a crash checks the same thing again (same caller,
   * place in the conversation, guardrail and subject): give it to a service with side effects (an
   * alert, a paid judge) so they happen once.
   */
  readonly idempotencyKey: string;
}

/**
 * A check beside the model. `check` may answer at once or with a promise; one that throws, or takes
 * longer than `timeoutMs` (default 30 s), blocks (guardrails fail closed). `parallel: true` (input
 * only) lets the model call start beside the check: no tool runs and no text is shown until it passed.
 * @example
 * const noSecrets: Guardrail<OutputSubject> = {
 *   name: 'no-secrets',
 *   check: ({ text }) => (/sk-[a-z0-9]{20}/i.test(text) ? { action: 'block', reason: 'an API key' } : { action: 'pass' }),
 * };
 */
export interface Guardrail<S extends GuardrailSubject = GuardrailSubject> {
  /** Names it in `GuardrailTripped`, events and stored records. */
  readonly name: string;
  /** Checks `subject`; sync or async. */
  check(subject: S, context: GuardrailContext): GuardrailDecision | Promise<GuardrailDecision>;
  /** How long an async check may take, in ms. Default 30,000. */
  readonly timeoutMs?: number;
  /** An input guardrail that runs beside the model call instead of before it. Default false. */
  readonly parallel?: boolean;
}

/** Guardrails given to an Agent, a Graph or a Swarm, or passed down to each node of an orchestrator. */
export interface GuardrailSet {
  /** Checked on each new prompt, before the model is called (unless `parallel`). */
  readonly inputGuardrails?: readonly Guardrail<InputSubject>[] | undefined;
  /** Checked on windows of the streamed text and on each whole answer, before anyone sees it. */
  readonly outputGuardrails?: readonly Guardrail<OutputSubject>[] | undefined;
  /** Checked on every tool call, before it runs and after. */
  readonly toolGuardrails?: readonly Guardrail<ToolSubject>[] | undefined;
}

/** How the loop applies guardrails (every field has a default). */
export interface GuardrailOptions {
  /** How many times a turn may ask the model again for a `retry`; past it the guardrail blocks. Default 2. */
  readonly maxRetries?: number;
  /** About how many characters of streamed text a window holds before it is checked and shown. Default 200. */
  readonly windowChars?: number;
}

export type { GuardrailWhere } from '../errors/guardrail-errors.js';

/** Guardrails a caller adds to an invocation (an orchestrator passes its own to each node), and where it runs. */
export interface InvocationGuardrails extends GuardrailSet {
  /** Where the invocation runs in the run tree (`desk/refund`); default the agent's name. */
  readonly path?: string | undefined;
  /** How the loop applies them; the agent's own options win. */
  readonly options?: GuardrailOptions | undefined;
}
