export { AnthropicModel } from './anthropic-model.js';
export { DEFAULT_ANTHROPIC_MAX_TOKENS, DEFAULT_ANTHROPIC_MODEL_ID } from './anthropic-options.js';
export type { AnthropicClient, AnthropicModelOptions, AnthropicParams } from './anthropic-options.js';
