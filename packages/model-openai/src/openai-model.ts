import type OpenAI from 'openai';
import type { Model, ModelRequest, ModelStreamEvent } from '@skein/core';
import { toChatRequest } from './convert/to-chat-request.js';
import { toResponsesRequest } from './convert/to-responses-request.js';
import { toSkeinError } from './errors/to-skein-error.js';
import { resolveOpenAIOptions, type OpenAIModelOptions, type ResolvedOpenAIOptions } from './openai-options.js';
import { translateChunks } from './stream/translate-chunks.js';
import { translateResponseEvents } from './stream/translate-response-events.js';

/**
 * A model behind OpenAI's Chat Completions API: OpenAI itself, or any server that speaks it (Ollama,
 * vLLM, llama.cpp's server, LM Studio, LiteLLM, OpenRouter, Azure OpenAI through its client), streamed
 * through the official `openai` SDK; or, with `api: 'responses'`, OpenAI's Responses API (stateless).
 * The client skein builds does not retry (`maxRetries: 0`): the agent's retry strategy is the one
 * retry layer.
 * @example
 * const local = new OpenAIModel({ modelId: 'llama3.2', baseURL: 'http://localhost:11434/v1' });
 * const agent = new Agent({ model: local, tools: [calculator] });
 * const openai = new OpenAIModel({ modelId: 'gpt-5-mini', api: 'responses' });
 */
export class OpenAIModel implements Model {
  readonly modelId: string;
  /** The client requests go through: the one passed in, or the one skein built. */
  readonly client: OpenAI;
  readonly #options: ResolvedOpenAIOptions;

  constructor(options: OpenAIModelOptions = {}) {
    this.#options = resolveOpenAIOptions(options);
    this.modelId = this.#options.modelId;
    this.client = this.#options.client;
  }

  /** Streams the answer to a request as core stream events; `request.signal` aborts it. */
  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const { signal } = request;
    const { baseURL, api, params } = this.#options;
    const options = signal ? { signal } : undefined;
    const started = performance.now();
    let events: AsyncGenerator<ModelStreamEvent>;
    try {
      if (signal?.aborted) throw signal.reason;
      events =
        api === 'responses'
          ? translateResponseEvents(
              await this.client.responses.create(toResponsesRequest(request, this.modelId, params), options),
              started,
            )
          : translateChunks(
              await this.client.chat.completions.create(toChatRequest(request, this.modelId, params), options),
              started,
            );
    } catch (error) {
      throw toSkeinError(error, signal, baseURL, 'request');
    }
    try {
      yield* events;
    } catch (error) {
      throw toSkeinError(error, signal, baseURL, 'stream');
    }
  }
}
