export { OpenAIModel } from './openai-model.js';
export type { OpenAIApi, OpenAIModelOptions } from './openai-options.js';
