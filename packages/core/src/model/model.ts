import type { JsonSchema } from '../types/json.js';
import type { Message } from '../types/messages.js';

/** Why a model stopped, in the Converse spelling, plus skein's own `cancelled`, `handoff`, `interrupt` and `budget_exceeded`. */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'content_filtered'
  | 'guardrail_intervened'
  | 'cancelled'
  | 'handoff'
  | 'interrupt'
  /** A run-tree budget limit was reached (see `result.budgetExceeded`). */
  | 'budget_exceeded'
  /** A guardrail blocked the turn (the result of a `GuardrailTripped`). */
  | 'guardrail_tripped';

/** A tool as a model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: { json: JsonSchema };
}

/** Which tool the model must use — its own choice, at least one, or a named one. */
export type ToolChoice = { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };

/** What the agent loop asks of a model. */
export interface ModelRequest {
  messages: readonly Message[];
  systemPrompt?: string;
  toolSpecs?: readonly ToolSpec[];
  toolChoice?: ToolChoice;
  signal?: AbortSignal;
  /** The name of the agent that asks (what `route` can pick a model by). */
  agentName?: string;
  /** Told what a model that delegates (`fallback`, `route`) tried; set by the agent loop. */
  observer?: ModelObserver;
}

/** One model a delegating model (`fallback`, `route`) tried for one request, and how it went. */
export interface ModelAttempt {
  /** The model tried. */
  model: Model;
  /** `answered`: its answer is the one streamed; `failed`: it threw `error`; `skipped`: its circuit breaker was open. */
  outcome: 'answered' | 'failed' | 'skipped';
  /** Why it failed (or, for `skipped`, the failure that opened its breaker). */
  error?: unknown;
  /** When the attempt started (ms since the epoch). */
  startedAt: number;
  /** How long it took, in ms (0 for a skipped model). */
  durationMs: number;
}

/** Receives what a delegating model did for one request; the agent loop turns it into events, budget and metrics. */
export interface ModelObserver {
  /** One model was tried (or skipped). */
  attempt(attempt: ModelAttempt): void;
}

/** Token counts of one model call. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** The delta of a content block. */
export type ContentBlockDelta =
  | { text: string }
  | { toolUse: { input: string } }
  | { reasoningContent: { text: string } | { signature: string } | { redactedContent: Uint8Array } };

/**
 * One event of a model's answer: one-key objects, exactly as Bedrock ConverseStream emits them.
 * A text block needs no `contentBlockStart`; a tool use's input is the concatenation of its deltas.
 */
export type ModelStreamEvent =
  | { messageStart: { role: 'assistant' } }
  | { contentBlockStart: { contentBlockIndex: number; start: { toolUse: { toolUseId: string; name: string } } } }
  | { contentBlockDelta: { contentBlockIndex: number; delta: ContentBlockDelta } }
  | { contentBlockStop: { contentBlockIndex: number } }
  | { messageStop: { stopReason: StopReason | (string & {}) } }
  | { metadata: { usage: Usage; metrics?: { latencyMs: number } } };

/**
 * A language model. Providers translate their wire format into {@link ModelStreamEvent}s and their
 * errors into `ModelThrottledError`, `ContextWindowOverflowError` or `ModelError`.
 */
export interface Model {
  /** The provider's id of the model. */
  readonly modelId: string;
  /** Streams the model's answer to a request. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /** `'auto'` when the model places prompt-cache breakpoints itself (the loop then warns when the cached prefix is rewritten). */
  readonly cache?: 'auto' | 'off';
}
