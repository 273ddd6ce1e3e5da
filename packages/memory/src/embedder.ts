import { type EmbeddingModel, MemoryError } from '@skein/core';

/** How many recent vectors are kept for reuse. */
const RECENT = 64;

/**
 * Calls an embedding model and checks what it returns: one vector per text, every one of the model's
 * `dimensions` (or, when it declares none, of the length its first answer had). A wrong answer is a
 * `MemoryError` (`memory_embedding_dimension`): nothing is stored with it.
 */
export class Embedder {
  readonly model: EmbeddingModel;
  #dimensions: number | undefined;
  readonly #recent = new Map<string, number[]>();

  constructor(model: EmbeddingModel) {
    this.model = model;
    this.#dimensions = model.dimensions;
  }

  /**
   * Vectors for `texts`. A text embedded lately (a prompt embedded as recall's query) is not sent
   * again: the message is stored with the vector its query had.
   */
  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const missing = [...new Set(texts.filter((t) => !this.#recent.has(t)))];
    if (missing.length > 0) {
      const vectors = await this.#ask(missing, signal);
      missing.forEach((t, i) => this.#remember(t, vectors[i] as number[]));
    }
    return texts.map((t) => this.#recent.get(t) as number[]);
  }

  /** Keeps the last few vectors (a turn's query until the turn is stored). */
  #remember(text: string, vector: number[]): void {
    this.#recent.delete(text);
    this.#recent.set(text, vector);
    if (this.#recent.size > RECENT) this.#recent.delete(this.#recent.keys().next().value as string);
  }

  async #ask(texts: readonly string[], signal: AbortSignal | undefined): Promise<number[][]> {
    const vectors = await this.model.embed(texts, signal ? { signal } : {});
    if (!Array.isArray(vectors) || vectors.length !== texts.length)
      throw new MemoryError(
        `Embedding model ${this.model.modelId} returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${texts.length} texts; nothing was stored.`,
        {},
        'memory_embedding_dimension',
      );
    const expected = this.#dimensions ?? vectors[0]?.length;
    for (const v of vectors) {
      if (!Array.isArray(v) || v.length !== expected || v.length === 0 || !v.every(Number.isFinite))
        throw new MemoryError(
          `Embedding model ${this.model.modelId} returned a vector of ${Array.isArray(v) ? v.length : 'no'} numbers where ${expected} were expected (its dimensions); check the model id and its dimensions option. Nothing was stored.`,
          {},
          'memory_embedding_dimension',
        );
    }
    this.#dimensions = expected;
    return vectors;
  }
}
