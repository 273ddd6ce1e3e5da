import type { EmbeddingModel } from '@skein/core';
import type OpenAI from 'openai';
import { toSkeinError } from './errors/to-skein-error.js';
import type { OpenAIModelOptions } from './openai-options.js';
import { resolveOpenAIOptions } from './openai-options.js';

/** Options of {@link OpenAIEmbeddingModel}: the client options of `OpenAIModel`, the model and its vector length. */
export interface OpenAIEmbeddingModelOptions
  extends Pick<OpenAIModelOptions, 'baseURL' | 'apiKey' | 'client' | 'clientOptions'> {
  /** Default `text-embedding-3-small` (OpenAI); e.g. `nomic-embed-text` on Ollama. */
  modelId?: string;
  /** The vector length: sent as `dimensions` (models that can shorten their vectors take it) and checked on each answer. */
  dimensions?: number;
}

/**
 * Embeddings from OpenAI or any server with an OpenAI-compatible `POST /embeddings` (Ollama, vLLM,
 * LM Studio, LiteLLM), for vector recall in `@skein/memory`. Errors map as `OpenAIModel`'s do.
 * @example
 * const embeddings = new OpenAIEmbeddingModel({ modelId: 'nomic-embed-text', baseURL: 'http://localhost:11434/v1' });
 * const memory = new Memory({ store, recall: { embeddings } });
 */
export class OpenAIEmbeddingModel implements EmbeddingModel {
  readonly modelId: string;
  readonly dimensions: number | undefined;
  readonly #client: OpenAI;
  readonly #baseURL: string;
  readonly #sendDimensions: boolean;

  constructor(options: OpenAIEmbeddingModelOptions = {}) {
    const { modelId, dimensions, ...client } = options;
    const resolved = resolveOpenAIOptions({ ...client, modelId: modelId ?? 'text-embedding-3-small' });
    this.modelId = resolved.modelId;
    this.dimensions = dimensions;
    this.#sendDimensions = dimensions !== undefined;
    this.#client = resolved.client;
    this.#baseURL = resolved.baseURL;
  }

  /** One vector per text, in order (the answer's `index` orders them). */
  async embed(texts: readonly string[], options: { signal?: AbortSignal | undefined } = {}): Promise<number[][]> {
    try {
      const response = await this.#client.embeddings.create(
        {
          model: this.modelId,
          input: [...texts],
          ...(this.#sendDimensions && this.dimensions !== undefined ? { dimensions: this.dimensions } : {}),
        },
        options.signal ? { signal: options.signal } : {},
      );
      return [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    } catch (error) {
      throw toSkeinError(error, options.signal, this.#baseURL, 'request');
    }
  }
}
