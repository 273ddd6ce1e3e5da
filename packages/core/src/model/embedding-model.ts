/**
 * A model that turns texts into vectors (embeddings), for vector recall in `@skein/memory`.
 * Implementations: `BedrockEmbeddingModel` (`@skein/model-bedrock`: Titan, Cohere) and
 * `OpenAIEmbeddingModel` (`@skein/model-openai`: OpenAI and OpenAI-compatible `/embeddings`, such as
 * Ollama and vLLM).
 */
export interface EmbeddingModel {
  readonly modelId: string;
  /** The length of every vector it returns, when known in advance (checked on each answer). */
  readonly dimensions?: number | undefined;
  /** One vector per text, in order. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal | undefined }): Promise<number[][]>;
}
