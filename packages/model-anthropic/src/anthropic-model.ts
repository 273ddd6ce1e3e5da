import type { Model, ModelRequest, ModelStreamEvent } from '@skein/core';
import {
  resolveAnthropicOptions,
  type AnthropicClient,
  type AnthropicModelOptions,
  type ResolvedAnthropicOptions,
} from './anthropic-options.js';
import { toAnthropicRequest } from './convert/to-anthropic-request.js';
import { toSkeinError } from './errors/to-skein-error.js';
import { translateStream } from './stream/translate-stream.js';

/**
 * Claude through Anthropic's Messages API (`@anthropic-ai/sdk`), streamed. Each server event becomes
 * a core stream event as it arrives; SDK errors become `ModelThrottledError`,
 * `ContextWindowOverflowError`, `CancelledError` or `ModelError` with the SDK error as `cause`.
 * The client skein builds does not retry (`maxRetries: 0`): the agent's retry strategy is the one
 * retry layer. A client passed in is used as is.
 * @example
 * import { Agent } from '@skein/core';
 * import { AnthropicModel } from '@skein/model-anthropic';
 *
 * const agent = new Agent({ model: new AnthropicModel({ modelId: 'claude-sonnet-5-5', maxTokens: 2048 }) });
 * const result = await agent.invoke('Say hello in French.');
 */
export class AnthropicModel implements Model {
  /** The Claude model id sent with every request. */
  readonly modelId: string;
  /** The `max_tokens` sent with every request. */
  readonly maxTokens: number;
  /** The Anthropic client requests go through: the one passed in, or the one skein built. */
  readonly client: AnthropicClient;
  /** `'auto'`: prompt-cache breakpoints are placed on every request (see the README). */
  readonly cache: 'auto' | 'off';
  readonly #options: ResolvedAnthropicOptions;

  constructor(options: AnthropicModelOptions = {}) {
    this.#options = resolveAnthropicOptions(options);
    this.modelId = this.#options.modelId;
    this.maxTokens = this.#options.maxTokens;
    this.client = this.#options.client;
    this.cache = this.#options.cache;
  }

  /** Streams Claude's answer to a request as core stream events; `request.signal` aborts it. */
  stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const { signal } = request;
    const client = this.client;
    return translateStream(
      async () => {
        if (signal?.aborted) throw signal.reason;
        return client.messages.create(toAnthropicRequest(request, this.#options), signal ? { signal } : undefined);
      },
      (error, phase) => toSkeinError(error, signal, phase),
    );
  }
}
