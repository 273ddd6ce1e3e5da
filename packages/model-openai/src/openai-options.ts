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
  /**
   * Which API the requests go to: `'chat'` (Chat Completions, default: OpenAI and every compatible
   * server) or `'responses'` (OpenAI's Responses API, stateless: `store: false` unless `params` says otherwise).
   */
  api?: OpenAIApi;
  /** Request fields sent with every call (`max_completion_tokens` or, for Responses, `max_output_tokens`; `temperature`, `reasoning_effort` / `reasoning`, ...). */
  params?: Record<string, unknown>;
}

/** The OpenAI API a model speaks: Chat Completions or Responses. */
export type OpenAIApi = 'chat' | 'responses';

export interface ResolvedOpenAIOptions {
  modelId: string;
  api: OpenAIApi;
  client: OpenAI;
  baseURL: string;
  params: Record<string, unknown>;
}

/** Request fields skein sets from the request, per API. */
const RESERVED: Record<OpenAIApi, ReadonlySet<string>> = {
  chat: new Set(['model', 'messages', 'stream', 'stream_options', 'tools', 'tool_choice']),
  responses: new Set([
    'model',
    'input',
    'instructions',
    'stream',
    'tools',
    'tool_choice',
    'previous_response_id',
    'conversation',
  ]),
};

/** Validates the options and builds the client (SDK retries off: the agent's retry strategy is the one layer). */
export function resolveOpenAIOptions(
  options: OpenAIModelOptions,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedOpenAIOptions {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError(
      'OpenAIModel takes an options object: { modelId?, baseURL?, apiKey?, client?, api?, params? }.',
    );
  const modelId = options.modelId ?? 'gpt-5-mini';
  if (typeof modelId !== 'string' || modelId.trim() === '')
    throw new ConfigurationError(
      `OpenAIModel: modelId must be a non-empty string (got ${JSON.stringify(options.modelId)}).`,
    );
  const api = options.api ?? 'chat';
  if (api !== 'chat' && api !== 'responses')
    throw new ConfigurationError(
      `OpenAIModel: api must be 'chat' or 'responses' (got ${JSON.stringify(options.api)}).`,
    );
  const params = options.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw new ConfigurationError('OpenAIModel: params must be an object of request fields.');
  const reserved = Object.keys(params).filter((k) => RESERVED[api].has(k));
  if (reserved.length > 0)
    throw new ConfigurationError(
      `OpenAIModel: params cannot set ${reserved.join(', ')} (skein sets them from the request).`,
    );
  if (options.client !== undefined) {
    if (options.baseURL !== undefined || options.apiKey !== undefined || options.clientOptions !== undefined) {
      throw new ConfigurationError(
        'OpenAIModel: give either client or baseURL/apiKey/clientOptions, not both (configure the client you pass instead).',
      );
    }
    return { modelId, api, client: options.client, baseURL: options.client.baseURL, params };
  }
  const baseURL = options.baseURL ?? env['OPENAI_BASE_URL'] ?? undefined;
  if (baseURL !== undefined && !/^https?:\/\//.test(baseURL))
    throw new ConfigurationError(
      `OpenAIModel: baseURL must be an http(s) URL like http://localhost:11434/v1 (got ${JSON.stringify(baseURL)}).`,
    );
  const apiKey = options.apiKey ?? env['OPENAI_API_KEY'] ?? (baseURL !== undefined ? 'no-key-needed' : undefined);
  if (apiKey === undefined || apiKey === '') {
    throw new ConfigurationError(
      'OpenAIModel needs an API key for OpenAI: set OPENAI_API_KEY (or pass apiKey), or point baseURL (or OPENAI_BASE_URL) at a server that needs none.',
    );
  }
  const client = new OpenAI({
    maxRetries: 0,
    ...options.clientOptions,
    apiKey,
    ...(baseURL !== undefined ? { baseURL } : {}),
  });
  return { modelId, api, client, baseURL: client.baseURL, params };
}
