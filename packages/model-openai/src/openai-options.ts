import OpenAI, { type ClientOptions } from 'openai';
import { ConfigurationError } from '@skein/core';

/** Options of {@link OpenAIModel}. */
export interface OpenAIModelOptions {
  /** The model id sent with every request, e.g. `gpt-5-mini`, `llama3.2`, `Qwen/Qwen3-8B`. Default `gpt-5-mini`. */
  modelId?: string;
  /** The server, e.g. `http://localhost:11434/v1` (Ollama). Default: `OPENAI_BASE_URL`, else OpenAI. */
  baseURL?: string;
  /** Default: `OPENAI_API_KEY`; a server at a `baseURL` that needs none gets a placeholder. */
  apiKey?: string;
  /** A client you configured (Azure OpenAI, a proxy...); used as is. Excludes `baseURL`, `apiKey`, `clientOptions`. */
  client?: OpenAI;
  /** More options of the client skein builds (timeout, headers, organization...). */
  clientOptions?: Omit<ClientOptions, 'apiKey' | 'baseURL'>;
  /** Request fields sent with every call (`max_completion_tokens`, `temperature`, `reasoning_effort`, ...). */
  params?: Record<string, unknown>;
}

export interface ResolvedOpenAIOptions {
  modelId: string;
  client: OpenAI;
  baseURL: string;
  params: Record<string, unknown>;
}

const RESERVED = new Set(['model', 'messages', 'stream', 'stream_options', 'tools', 'tool_choice']);

/** Validates the options and builds the client (SDK retries off: the agent's retry strategy is the one layer). */
export function resolveOpenAIOptions(options: OpenAIModelOptions, env: NodeJS.ProcessEnv = process.env): ResolvedOpenAIOptions {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('OpenAIModel takes an options object: { modelId?, baseURL?, apiKey?, client?, params? }.');
  const modelId = options.modelId ?? 'gpt-5-mini';
  if (typeof modelId !== 'string' || modelId.trim() === '') throw new ConfigurationError(`OpenAIModel: modelId must be a non-empty string (got ${JSON.stringify(options.modelId)}).`);
  const params = options.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw new ConfigurationError('OpenAIModel: params must be an object of request fields.');
  const reserved = Object.keys(params).filter((k) => RESERVED.has(k));
  if (reserved.length > 0) throw new ConfigurationError(`OpenAIModel: params cannot set ${reserved.join(', ')} (skein sets them from the request).`);
  if (options.client !== undefined) {
    if (options.baseURL !== undefined || options.apiKey !== undefined || options.clientOptions !== undefined) {
      throw new ConfigurationError('OpenAIModel: give either client or baseURL/apiKey/clientOptions, not both (configure the client you pass instead).');
    }
    return { modelId, client: options.client, baseURL: options.client.baseURL, params };
  }
  const baseURL = options.baseURL ?? env['OPENAI_BASE_URL'] ?? undefined;
  if (baseURL !== undefined && !/^https?:\/\//.test(baseURL)) throw new ConfigurationError(`OpenAIModel: baseURL must be an http(s) URL like http://localhost:11434/v1 (got ${JSON.stringify(baseURL)}).`);
  const apiKey = options.apiKey ?? env['OPENAI_API_KEY'] ?? (baseURL !== undefined ? 'no-key-needed' : undefined);
  if (apiKey === undefined || apiKey === '') {
    throw new ConfigurationError('OpenAIModel needs an API key for OpenAI: set OPENAI_API_KEY (or pass apiKey), or point baseURL (or OPENAI_BASE_URL) at a server that needs none.');
  }
  const client = new OpenAI({ maxRetries: 0, ...options.clientOptions, apiKey, ...(baseURL !== undefined ? { baseURL } : {}) });
  return { modelId, client, baseURL: client.baseURL, params };
}
