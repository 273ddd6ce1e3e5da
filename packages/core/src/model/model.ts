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
  | 'budget_exceeded';

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
}
