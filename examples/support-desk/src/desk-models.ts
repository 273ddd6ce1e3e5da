/**
 * Which model the desk runs on. `--model anthropic,bedrock` names a chain of providers, tried in
 * order (`fallback` from @skein/core: a 529 or a 5xx moves on to the next); without it, a real
 * provider when its credentials are in the environment (Anthropic, then an OpenAI-compatible
 * server, then Bedrock), else the scripted models that follow the conversation. Says which.
 * Anthropic and Bedrock place prompt-cache breakpoints themselves (`cache: 'auto'`).
 */
import { ConfigurationError, fallback, type Model } from '@skein/core';
import { scriptedDeskModel, type DeskRole } from './scripted-desk.js';

export interface DeskModels {
  description: string;
  modelFor: (role: DeskRole) => Model;
}

/** The providers `--model` may name. */
const PROVIDERS = ['anthropic', 'openai', 'bedrock'] as const;
type Provider = (typeof PROVIDERS)[number];

/** One provider's model, configured from the environment. */
async function providerModel(name: Provider, env: NodeJS.ProcessEnv): Promise<{ model: Model; what: string }> {
  if (name === 'anthropic') {
    const { AnthropicModel } = await import('@skein/model-anthropic');
    const model = new AnthropicModel({ maxTokens: 1024, cache: 'auto' });
    return { model, what: `Anthropic ${model.modelId}` };
  }
  if (name === 'openai') {
    const { OpenAIModel } = await import('@skein/model-openai');
    const api = env['OPENAI_API'] === 'responses' ? 'responses' : 'chat';
    const model = new OpenAIModel({ modelId: env['OPENAI_MODEL'] ?? 'gpt-5-mini', api });
    return {
      model,
      what: `OpenAI-compatible ${model.modelId} at ${model.client.baseURL}${api === 'responses' ? ' (Responses API)' : ''}`,
    };
  }
  const { BedrockModel } = await import('@skein/model-bedrock');
  const model = new BedrockModel({ cache: 'auto' });
  return { model, what: `Amazon Bedrock ${model.modelId}` };
}

/** `--model a,b,...`: each provider in order, as one model (a fallback chain when there are several). */
async function chainModels(chain: string, env: NodeJS.ProcessEnv): Promise<DeskModels> {
  const names = chain.split(',').map((n) => n.trim().toLowerCase());
  if (names.length === 1 && names[0] === 'scripted') return scripted('--model scripted');
  const unknown = names.filter((n) => !(PROVIDERS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0)
    throw new ConfigurationError(
      `--model takes providers separated by commas, tried in order: ${PROVIDERS.join(', ')} (e.g. --model anthropic,bedrock), or scripted; got ${JSON.stringify(chain)}.`,
    );
  const parts = await Promise.all(names.map((n) => providerModel(n as Provider, env)));
  const model = parts.length === 1 ? (parts[0] as { model: Model }).model : fallback(parts.map((p) => p.model));
  const description =
    parts.length === 1
      ? `${parts[0]?.what} (--model)`
      : `fallback chain ${parts.map((p) => p.what).join(' -> ')} (--model)`;
  return { description, modelFor: () => model };
}

export async function pickDeskModels(env: NodeJS.ProcessEnv = process.env, chain?: string): Promise<DeskModels> {
  if (chain !== undefined) return chainModels(chain, env);
  if (env['DESK_MODEL'] === 'scripted') return scripted('DESK_MODEL=scripted');
  if (env['ANTHROPIC_API_KEY']) {
    const { model, what } = await providerModel('anthropic', env);
    return { description: `${what} (ANTHROPIC_API_KEY is set)`, modelFor: () => model };
  }
  if (env['OPENAI_BASE_URL'] || env['OPENAI_API_KEY']) {
    const { model, what } = await providerModel('openai', env);
    return { description: `${what} (OPENAI_BASE_URL / OPENAI_API_KEY is set)`, modelFor: () => model };
  }
  if (env['AWS_ACCESS_KEY_ID'] || env['AWS_PROFILE']) {
    const { model, what } = await providerModel('bedrock', env);
    return { description: `${what} (AWS credentials are set)`, modelFor: () => model };
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
