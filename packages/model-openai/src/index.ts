export { OpenAIModel } from './openai-model.js';
export type { OpenAIApi, OpenAIModelOptions } from './openai-options.js';
export { OpenAIEmbeddingModel } from './openai-embedding-model.js';
export type { OpenAIEmbeddingModelOptions } from './openai-embedding-model.js';
