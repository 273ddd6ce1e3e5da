/**
 * Picks a real provider when its credentials are in the environment, else the scripted model with
 * the given script (and says so): examples run anywhere, and for real where they can.
 */
import type { Model } from '@skein/core';
import { ScriptedModel, type ScriptedTurn } from '@skein/core/testing';

/** A model for an example: Anthropic, Bedrock, or the scripted fallback. */
export async function pickModel(script: ScriptedTurn[]): Promise<Model> {
  if (process.env['ANTHROPIC_API_KEY']) {
    const { AnthropicModel } = await import('@skein/model-anthropic');
    console.log('[model] Anthropic (ANTHROPIC_API_KEY is set)');
    return new AnthropicModel();
  }
  if (process.env['OPENAI_BASE_URL'] || process.env['OPENAI_API_KEY']) {
    const { OpenAIModel } = await import('@skein/model-openai');
    const model = new OpenAIModel({
      modelId: process.env['OPENAI_MODEL'] ?? 'gpt-5-mini',
      api: process.env['OPENAI_API'] === 'responses' ? 'responses' : 'chat',
    });
    console.log(
      `[model] OpenAI-compatible ${model.modelId} at ${model.client.baseURL} (OPENAI_BASE_URL / OPENAI_API_KEY is set${process.env['OPENAI_API'] === 'responses' ? '; Responses API' : ''})`,
    );
    return model;
  }
  if (process.env['AWS_ACCESS_KEY_ID'] || process.env['AWS_PROFILE']) {
    const { BedrockModel } = await import('@skein/model-bedrock');
    console.log('[model] Amazon Bedrock (AWS credentials are set)');
    return new BedrockModel();
  }
  console.log(
    '[model] No ANTHROPIC_API_KEY or AWS credentials: running on the scripted model from @skein/core/testing.',
  );
  return new ScriptedModel(script, { chunkSize: 12 });
}
