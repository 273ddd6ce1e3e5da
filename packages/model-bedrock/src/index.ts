export { BedrockModel } from './bedrock-model.js';
export { DEFAULT_BEDROCK_MODEL_ID, DEFAULT_BEDROCK_REGION } from './bedrock-options.js';
export type { BedrockGuardrail, BedrockModelOptions, BedrockModelParams } from './bedrock-options.js';
export { BedrockEmbeddingModel } from './bedrock-embedding-model.js';
export type { BedrockEmbeddingModelOptions } from './bedrock-embedding-model.js';
