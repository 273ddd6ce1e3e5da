import {
  BedrockRuntimeClient,
  type BedrockRuntimeClientConfig,
  InvokeModelCommand,
} from '@aws-sdk/client-bedrock-runtime';
import { ConfigurationError, type EmbeddingModel } from '@skein/core';
import { resolveRegion } from './bedrock-options.js';
import { toCoreError } from './errors/to-skein-error.js';

/** Options of {@link BedrockEmbeddingModel}. */
export interface BedrockEmbeddingModelOptions {
  /** `amazon.titan-embed-text-v2:0` (default), `amazon.titan-embed-text-v1`, `cohere.embed-english-v3`, `cohere.embed-multilingual-v3`. */
  modelId?: string;
  /** Titan v2's vector length (256, 512 or 1024; sent as `dimensions`) and the length checked on each answer. */
  dimensions?: number;
  /** Cohere's `input_type`. Default `search_document` (both what is stored and what is searched for are short texts of one conversation). */
  inputType?: 'search_document' | 'search_query';
  /** AWS region. Default: `AWS_REGION`, else `us-west-2`. Not with `client`. */
  region?: string;
  /** A client you built; used as is. */
  client?: BedrockRuntimeClient;
  /** Options of the client built here (SDK retries off: `maxAttempts: 1`). */
  clientConfig?: BedrockRuntimeClientConfig;
}

const decoder = new TextDecoder();

/**
 * Embeddings on Amazon Bedrock through `InvokeModel`, for vector recall in `@skein/memory`: Titan
 * Text Embeddings (one text per request, sent in parallel) and Cohere Embed (one request per 96
 * texts). Errors map as `BedrockModel`'s do (throttling is a `ModelThrottledError`).
 * @example
 * const memory = new Memory({ store, recall: { embeddings: new BedrockEmbeddingModel({ dimensions: 512 }) } });
 */
export class BedrockEmbeddingModel implements EmbeddingModel {
  readonly modelId: string;
  readonly dimensions: number | undefined;
  readonly client: BedrockRuntimeClient;
  readonly #inputType: string;
  readonly #cohere: boolean;

  constructor(options: BedrockEmbeddingModelOptions = {}) {
    this.modelId = options.modelId ?? 'amazon.titan-embed-text-v2:0';
    if (!/(^|\.)(amazon\.titan-embed|cohere\.embed)/.test(this.modelId))
      throw new ConfigurationError(
        `BedrockEmbeddingModel speaks Titan Text Embeddings and Cohere Embed; ${JSON.stringify(this.modelId)} is neither (e.g. amazon.titan-embed-text-v2:0).`,
      );
    if (options.client && (options.region || options.clientConfig))
      throw new ConfigurationError('BedrockEmbeddingModel: give either client or region/clientConfig, not both.');
    this.dimensions = options.dimensions;
    this.#inputType = options.inputType ?? 'search_document';
    this.#cohere = this.modelId.includes('cohere.embed');
    this.client =
      options.client ??
      new BedrockRuntimeClient({ maxAttempts: 1, ...options.clientConfig, region: resolveRegion(options) });
  }

  async embed(texts: readonly string[], options: { signal?: AbortSignal | undefined } = {}): Promise<number[][]> {
    if (!this.#cohere)
      return Promise.all(texts.map((t) => this.#invoke(this.#titanBody(t), options.signal, titanVector)));
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += 96) batches.push(texts.slice(i, i + 96));
    const answers = await Promise.all(
      batches.map((batch) =>
        this.#invoke({ texts: batch, input_type: this.#inputType, truncate: 'END' }, options.signal, cohereVectors),
      ),
    );
    return answers.flat();
  }

  #titanBody(text: string): Record<string, unknown> {
    const v2 = this.modelId.includes('titan-embed-text-v2');
    return v2 && this.dimensions !== undefined ? { inputText: text, dimensions: this.dimensions } : { inputText: text };
  }

  async #invoke<T>(body: unknown, signal: AbortSignal | undefined, read: (json: unknown) => T): Promise<T> {
    try {
      const out = await this.client.send(
        new InvokeModelCommand({
          modelId: this.modelId,
          contentType: 'application/json',
          accept: 'application/json',
          body: JSON.stringify(body),
        }),
        signal ? { abortSignal: signal } : {},
      );
      return read(JSON.parse(decoder.decode(out.body)) as unknown);
    } catch (error) {
      throw toCoreError(error, this.modelId);
    }
  }
}

/** Titan's answer: `{ embedding: number[], inputTextTokenCount }`. */
function titanVector(json: unknown): number[] {
  const v = (json as { embedding?: unknown }).embedding;
  return Array.isArray(v) ? (v as number[]) : [];
}

/** Cohere's answer: `{ embeddings: number[][] }` (or `{ embeddings: { float: number[][] } }` when types were asked for). */
function cohereVectors(json: unknown): number[][] {
  const e = (json as { embeddings?: unknown }).embeddings;
  const list = Array.isArray(e) ? e : (e as { float?: unknown } | undefined)?.float;
  return Array.isArray(list) ? (list as number[][]) : [];
}
