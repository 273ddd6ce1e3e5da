export { OpenAIModel } from './openai-model.js';
export type { OpenAIModelOptions } from './openai-options.js';
