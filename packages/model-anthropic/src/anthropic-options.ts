import Anthropic, { type ClientOptions } from '@anthropic-ai/sdk';
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages/messages';
import { ConfigurationError } from '@skein/core';

/** The model used when `modelId` is not given: the current Claude Sonnet. */
export const DEFAULT_ANTHROPIC_MODEL_ID = 'claude-sonnet-5-5';

/** The `max_tokens` sent when `maxTokens` is not given. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/** Request fields skein fills in itself, which `params` may not set. */
const RESERVED_PARAMS = ['model', 'max_tokens', 'messages', 'system', 'tools', 'tool_choice', 'stream'] as const;

/** Extra Messages API fields sent with every request (`thinking`, `stop_sequences`, `metadata`, `output_config`, ...). */
export type AnthropicParams = Partial<Omit<MessageCreateParamsBase, (typeof RESERVED_PARAMS)[number]>>;

/** The part of an Anthropic client that {@link AnthropicModel} uses. */
export type AnthropicClient = Pick<Anthropic, 'messages'>;

/** Options of `new AnthropicModel(...)`. */
export interface AnthropicModelOptions {
  /** The Claude model id, e.g. `claude-opus-5-5`. Default {@link DEFAULT_ANTHROPIC_MODEL_ID}. */
  modelId?: string;
  /** Maximum tokens of one answer (`max_tokens`). Default {@link DEFAULT_ANTHROPIC_MAX_TOKENS}. */
  maxTokens?: number;
  /** Extra request fields sent with every call, e.g. `{ thinking: { type: 'adaptive' } }` or `{ stop_sequences: ['END'] }`. */
  params?: AnthropicParams;
  /** A ready client, used as is (its own retry settings included). Not together with `clientOptions`. */
  client?: AnthropicClient;
  /** Options for the client skein builds (`apiKey`, `baseURL`, `timeout`, ...); its retries default to off. */
  clientOptions?: ClientOptions;
  /** `'auto'` places prompt-cache breakpoints after the system prompt, after the tools and on the last message. Default `'off'`. */
  cache?: 'auto' | 'off';
}

/** Options after validation and defaults. */
export interface ResolvedAnthropicOptions {
  modelId: string;
  maxTokens: number;
  params: AnthropicParams;
  client: AnthropicClient;
  cache: 'auto' | 'off';
}

const KNOWN_OPTIONS = new Set(['modelId', 'maxTokens', 'params', 'client', 'clientOptions', 'cache']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates options, fills in defaults and builds the client (SDK retries off unless asked for). */
export function resolveAnthropicOptions(options: unknown): ResolvedAnthropicOptions {
  if (options === undefined) options = {};
  if (!isPlainObject(options))
    throw new ConfigurationError('AnthropicModel options must be an object, e.g. { modelId: "claude-sonnet-5-5" }.');
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) {
      const hint = key === 'model' ? ' Did you mean modelId?' : key === 'max_tokens' ? ' Did you mean maxTokens?' : '';
      throw new ConfigurationError(
        `AnthropicModel: unknown option "${key}".${hint} Known options: ${[...KNOWN_OPTIONS].join(', ')}.`,
      );
    }
  }
  const {
    modelId = DEFAULT_ANTHROPIC_MODEL_ID,
    maxTokens = DEFAULT_ANTHROPIC_MAX_TOKENS,
    params = {},
    client,
    clientOptions,
    cache = 'off',
  } = options;
  if (cache !== 'auto' && cache !== 'off')
    throw new ConfigurationError(`AnthropicModel: cache must be 'auto' or 'off' (got ${JSON.stringify(cache)}).`);
  if (typeof modelId !== 'string' || modelId.trim() === '') {
    throw new ConfigurationError(
      `AnthropicModel: modelId must be a non-empty string such as "${DEFAULT_ANTHROPIC_MODEL_ID}".`,
    );
  }
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new ConfigurationError(`AnthropicModel: maxTokens must be a positive integer (got ${String(maxTokens)}).`);
  }
  if (!isPlainObject(params))
    throw new ConfigurationError(
      'AnthropicModel: params must be an object of Messages API fields, e.g. { stop_sequences: ["END"] }.',
    );
  for (const key of RESERVED_PARAMS) {
    if (key in params) {
      throw new ConfigurationError(
        `AnthropicModel: params.${key} is set by skein (model -> modelId, max_tokens -> maxTokens; messages, system, tools and tool_choice come from the agent). Remove it from params.`,
      );
    }
  }
  if (client !== undefined && clientOptions !== undefined) {
    throw new ConfigurationError(
      'AnthropicModel: pass either client or clientOptions, not both (clientOptions only configure the client skein builds).',
    );
  }
  if (clientOptions !== undefined && !isPlainObject(clientOptions)) {
    throw new ConfigurationError(
      'AnthropicModel: clientOptions must be an object of Anthropic client options, e.g. { apiKey, baseURL }.',
    );
  }
  if (client !== undefined && !hasMessagesCreate(client)) {
    throw new ConfigurationError(
      'AnthropicModel: client must be an Anthropic client from @anthropic-ai/sdk (it has no messages.create).',
    );
  }
  return {
    modelId,
    maxTokens,
    params: params as AnthropicParams,
    cache,
    client: client ?? new Anthropic({ maxRetries: 0, ...(clientOptions as ClientOptions | undefined) }),
  };
}

function hasMessagesCreate(client: unknown): client is AnthropicClient {
  if (!isPlainObject(client) && typeof client !== 'object') return false;
  const messages = (client as { messages?: unknown }).messages;
  return (
    typeof messages === 'object' && messages !== null && typeof (messages as { create?: unknown }).create === 'function'
  );
}
