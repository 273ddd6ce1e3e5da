/**
 * Which model the desk runs on: a real provider when its credentials are in the environment
 * (Anthropic, then an OpenAI-compatible server, then Bedrock), else the scripted models that follow
 * the conversation. Says which.
 */
import type { Model } from '@skein/core';
import { scriptedDeskModel, type DeskRole } from './scripted-desk.js';

export interface DeskModels {
  description: string;
  modelFor: (role: DeskRole) => Model;
}

export async function pickDeskModels(env: NodeJS.ProcessEnv = process.env): Promise<DeskModels> {
  if (env['DESK_MODEL'] === 'scripted') return scripted('DESK_MODEL=scripted');
  if (env['ANTHROPIC_API_KEY']) {
    const { AnthropicModel } = await import('@skein/model-anthropic');
    const model = new AnthropicModel({ maxTokens: 1024 });
    return { description: `Anthropic ${model.modelId} (ANTHROPIC_API_KEY is set)`, modelFor: () => model };
  }
  if (env['OPENAI_BASE_URL'] || env['OPENAI_API_KEY']) {
    const { OpenAIModel } = await import('@skein/model-openai');
    const model = new OpenAIModel({
      modelId: env['OPENAI_MODEL'] ?? 'gpt-5-mini',
      api: env['OPENAI_API'] === 'responses' ? 'responses' : 'chat',
    });
    return {
      description: `OpenAI-compatible ${model.modelId} at ${model.client.baseURL} (OPENAI_BASE_URL / OPENAI_API_KEY is set${env['OPENAI_API'] === 'responses' ? '; Responses API' : ''})`,
      modelFor: () => model,
    };
  }
  if (env['AWS_ACCESS_KEY_ID'] || env['AWS_PROFILE']) {
    const { BedrockModel } = await import('@skein/model-bedrock');
    const model = new BedrockModel();
    return { description: `Amazon Bedrock ${model.modelId} (AWS credentials are set)`, modelFor: () => model };
  }
  return scripted('set ANTHROPIC_API_KEY, OPENAI_BASE_URL / OPENAI_API_KEY or AWS credentials for a real model');
}

/** The scripted models (`why`: how to get a real one, or why these were chosen). */
function scripted(why: string): DeskModels {
  return {
    description: `scripted models from @skein/core/testing that follow the conversation (${why})`,
    modelFor: scriptedDeskModel,
  };
}
