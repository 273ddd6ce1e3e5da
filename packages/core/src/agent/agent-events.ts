import type { Interrupt } from '../interrupt/interrupt.js';
import type { Model, ModelAttempt, ModelStreamEvent } from '../model/model.js';
import type { Message, ToolResult, ToolUse } from '../types/messages.js';
import type { BudgetWarning } from '../budget/budget-types.js';
import type { GuardrailTrip } from '../errors/guardrail-errors.js';
import type { GuardrailWhere } from '../errors/guardrail-errors.js';
import type { EventPlace } from '../events/event-place.js';

/** Mutable per-invocation state: callback handlers may change it; it comes back as `result.state`. */
export type RequestState = Record<string, unknown>;

/**
 * Events an agent's stream yields. Each has a `type`:
 * - `modelStreamEvent`: every raw event of the model, as the provider streamed it
 * - `textDelta` / `reasoningDelta`: a chunk of text or reasoning
 * - `toolStart` / `toolResult`: a tool begins / has its result
 * - `messageAdded`: a message was appended to the history
 * - `modelRetry`: a throttled or transiently failed model call is retried after `delayMs`
 * - `interrupt`: the invocation pauses until these interrupts are answered
 * - `budgetWarning`: a run-tree budget limit crossed its warning threshold
 * - `modelAttempt`: a delegating model (`fallback`, `route`) tried one of its models: which, and how it went
 * - `warning`: something works worse than it could (e.g. `cache_prefix_rewritten`: the prompt cache is written anew)
 * - `guardrailTripped`: a guardrail blocked the turn (`invoke`/`stream` reject with `GuardrailTripped` next)
 * - `guardrailRetry`: an output guardrail asked the model for another answer, with its feedback
 * - `textRetracted`: drop the text this model answer streamed so far (a guardrail blocked, retried or rewrote it)
 * - `toolStream`: an event of an agent used as a tool (`asTool`), wrapped with the tool use that runs it
 *
 * Every event carries `path` and `depth` (see {@link EventPlace}): `billing` for the agent's own,
 * `billing/refund` for those of the `refund` agent it uses as a tool (a `toolStream` carries the place
 * of the event it wraps).
 */
export type AgentStreamEvent = AgentEventData & EventPlace;

/** A stream event before the agent stamps its place: what the loop makes (see {@link AgentStreamEvent}). */
export type AgentEventData =
  | { type: 'modelStreamEvent'; event: ModelStreamEvent }
  | { type: 'textDelta'; data: string }
  | { type: 'reasoningDelta'; data: string }
  | { type: 'toolStart'; toolUse: ToolUse }
  | { type: 'toolResult'; toolResult: ToolResult }
  | { type: 'messageAdded'; message: Message }
  /** A model call failed and is tried again after `delayMs`; `discardedPartialAnswer`: what it had streamed (text, reasoning or tool input) is thrown away. */
  | {
      type: 'modelRetry';
      attempt: number;
      delayMs: number;
      error: unknown;
      discardedPartialAnswer: boolean;
    }
  | { type: 'interrupt'; interrupts: Interrupt[] }
  /** A budget limit crossed its warning threshold (once per limit per budget). */
  | { type: 'budgetWarning'; warning: BudgetWarning }
  /** A model behind `fallback` or `route` answered, failed (`error`) or was skipped by its circuit breaker. */
  | {
      type: 'modelAttempt';
      modelId: string;
      model: Model;
      outcome: ModelAttempt['outcome'];
      error?: unknown;
      startedAt: number;
      durationMs: number;
    }
  /** Something works worse than it could; `code` says what (`cache_prefix_rewritten`). */
  | { type: 'warning'; code: string; message: string }
  /** A guardrail blocked the turn: which, where, why (nothing it blocked is in any event). */
  | ({ type: 'guardrailTripped' } & GuardrailTrip)
  /** An output guardrail asked the model for another answer (`attempt`: the turn's retries so far). */
  | {
      type: 'guardrailRetry';
      guardrail: string;
      where: GuardrailWhere;
      feedback: string;
      attempt: number;
    }
  /** Drop every `textDelta` of the current model answer: a guardrail blocked, retried or rewrote it (a rewrite's text follows). */
  | {
      type: 'textRetracted';
      guardrail: string;
      action: 'block' | 'retry' | 'rewrite';
    }
  /** An event of an agent this one uses as a tool, with the tool use that runs it (the toolStart/toolResult pair brackets them). */
  | { type: 'toolStream'; toolUse: ToolUse; event: AgentStreamEvent };

/** What a `callbackHandler` receives: a stream event with the invocation's request state. */
export type CallbackEvent = AgentStreamEvent & { requestState: RequestState };

/** Receives every stream event of every invocation. */
export type CallbackHandler = (event: CallbackEvent) => void;
