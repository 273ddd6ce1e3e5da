import type { BedrockRuntimeClient, BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime';
import { ConfigurationError, type JsonObject } from '@skein/core';

/** The model id used when none is given: Claude Sonnet 4.5 through the US cross-region inference profile. */
export const DEFAULT_BEDROCK_MODEL_ID = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

/** The region used when neither the options nor `AWS_REGION` name one. */
export const DEFAULT_BEDROCK_REGION = 'us-west-2';

/** Inference parameters of every call. */
export interface BedrockModelParams {
  /** Upper bound of tokens in the answer (`inferenceConfig.maxTokens`). */
  maxTokens?: number;
  /** Sampling temperature, >= 0 (`inferenceConfig.temperature`). */
  temperature?: number;
  /** Nucleus sampling, 0..1 (`inferenceConfig.topP`). */
  topP?: number;
  /** Sequences that end the answer (`inferenceConfig.stopSequences`). */
  stopSequences?: string[];
  /** Model-specific fields sent as `additionalModelRequestFields`, e.g. `{ thinking: { type: 'enabled', budget_tokens: 2048 } }`. */
  additionalModelRequestFields?: JsonObject;
}

/** A Bedrock guardrail applied to every call. */
export interface BedrockGuardrail {
  /** The guardrail's id or ARN. */
  guardrailIdentifier: string;
  /** The guardrail's version, e.g. `'1'` or `'DRAFT'`. */
  guardrailVersion: string;
  /** Whether Bedrock returns the guardrail's trace. Default: Bedrock's (`'disabled'`). */
  trace?: 'enabled' | 'disabled' | 'enabled_full';
  /** Streaming only: `'sync'` (default) holds text back until checked, `'async'` checks it after sending. */
  streamProcessingMode?: 'sync' | 'async';
}

/** Options of `new BedrockModel({...})`. Every field is optional. */
export interface BedrockModelOptions {
  /** Bedrock model id or inference profile id. Default {@link DEFAULT_BEDROCK_MODEL_ID}. */
  modelId?: string;
  /** AWS region of the client BedrockModel builds. Default: `AWS_REGION`, else `'us-west-2'`. Not allowed with `client`. */
  region?: string;
  /** Inference parameters of every call. */
  params?: BedrockModelParams;
  /** A ready client, used as is (its own retry settings apply). Not allowed with `region` or `clientConfig`. */
  client?: BedrockRuntimeClient;
  /** Configuration of the client BedrockModel builds (credentials, endpoint, requestHandler...). SDK retries default to off. */
  clientConfig?: BedrockRuntimeClientConfig;
  /** A guardrail applied to every call; an intervention ends the answer with `stopReason: 'guardrail_intervened'`. */
  guardrail?: BedrockGuardrail;
  /** `'default'` puts a cache point after the system prompt so Bedrock can cache it. */
  cachePrompt?: 'default';
  /** `'default'` puts a cache point after the tool specs so Bedrock can cache them. */
  cacheTools?: 'default';
  /** Use ConverseStream (default true); false uses Converse and replays its answer as the same events. */
  streaming?: boolean;
  /** `'auto'` places cache points after the system prompt, after the tools and at the end of the last message. Default `'off'`. */
  cache?: 'auto' | 'off';
}

const KNOWN = new Set([
  'modelId',
  'region',
  'params',
  'client',
  'clientConfig',
  'guardrail',
  'cachePrompt',
  'cacheTools',
  'streaming',
  'cache',
]);
const PARAMS = new Set(['maxTokens', 'temperature', 'topP', 'stopSequences', 'additionalModelRequestFields']);

function fail(message: string): never {
  throw new ConfigurationError(`BedrockModel: ${message}`);
}

function checkKeys(value: object, known: Set<string>, where: string): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) fail(`unknown option ${where}${key}. Known options: ${[...known].join(', ')}.`);
  }
}

function checkString(value: unknown, name: string): void {
  if (value !== undefined && (typeof value !== 'string' || value.trim() === ''))
    fail(`${name} must be a non-empty string.`);
}

function checkParams(params: BedrockModelParams): void {
  checkKeys(params, PARAMS, 'params.');
  const { maxTokens, temperature, topP, stopSequences, additionalModelRequestFields: extra } = params;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0))
    fail(`params.maxTokens must be a positive integer (got ${String(maxTokens)}).`);
  if (
    temperature !== undefined &&
    !(typeof temperature === 'number' && temperature >= 0 && Number.isFinite(temperature))
  ) {
    fail(`params.temperature must be a finite number >= 0 (got ${String(temperature)}).`);
  }
  if (topP !== undefined && !(typeof topP === 'number' && topP >= 0 && topP <= 1))
    fail(`params.topP must be a number in 0..1 (got ${String(topP)}).`);
  if (
    stopSequences !== undefined &&
    !(Array.isArray(stopSequences) && stopSequences.every((s) => typeof s === 'string' && s !== ''))
  ) {
    fail('params.stopSequences must be an array of non-empty strings.');
  }
  if (extra !== undefined && (typeof extra !== 'object' || extra === null || Array.isArray(extra)))
    fail('params.additionalModelRequestFields must be a JSON object.');
}

function checkGuardrail(guardrail: BedrockGuardrail): void {
  if (typeof guardrail !== 'object' || guardrail === null)
    fail('guardrail must be an object { guardrailIdentifier, guardrailVersion, trace? }.');
  if (typeof guardrail.guardrailIdentifier !== 'string' || guardrail.guardrailIdentifier === '')
    fail('guardrail.guardrailIdentifier must be a non-empty string.');
  if (typeof guardrail.guardrailVersion !== 'string' || guardrail.guardrailVersion === '')
    fail('guardrail.guardrailVersion must be a non-empty string (e.g. "1" or "DRAFT").');
  if (guardrail.trace !== undefined && !['enabled', 'disabled', 'enabled_full'].includes(guardrail.trace))
    fail("guardrail.trace must be 'enabled', 'disabled' or 'enabled_full'.");
  if (guardrail.streamProcessingMode !== undefined && !['sync', 'async'].includes(guardrail.streamProcessingMode))
    fail("guardrail.streamProcessingMode must be 'sync' or 'async'.");
}

/** Throws a `ConfigurationError` naming the first option that cannot work. */
export function validateOptions(options: BedrockModelOptions): void {
  if (typeof options !== 'object' || options === null) fail('options must be an object.');
  checkKeys(options, KNOWN, '');
  checkString(options.modelId, 'modelId');
  checkString(options.region, 'region');
  if (options.client !== undefined) {
    if (typeof options.client !== 'object' || options.client === null || typeof options.client.send !== 'function')
      fail('client must be a BedrockRuntimeClient.');
    if (options.region !== undefined || options.clientConfig !== undefined) {
      fail(
        'region and clientConfig configure the client BedrockModel builds; with `client` set, configure that client instead.',
      );
    }
  }
  if (options.clientConfig !== undefined && (typeof options.clientConfig !== 'object' || options.clientConfig === null))
    fail('clientConfig must be an object.');
  if (options.params !== undefined) {
    if (typeof options.params !== 'object' || options.params === null) fail('params must be an object.');
    checkParams(options.params);
  }
  if (options.guardrail !== undefined) checkGuardrail(options.guardrail);
  if (options.cachePrompt !== undefined && options.cachePrompt !== 'default')
    fail("cachePrompt must be 'default' (or left out).");
  if (options.cacheTools !== undefined && options.cacheTools !== 'default')
    fail("cacheTools must be 'default' (or left out).");
  if (options.streaming !== undefined && typeof options.streaming !== 'boolean') fail('streaming must be a boolean.');
  if (options.cache !== undefined && options.cache !== 'auto' && options.cache !== 'off')
    fail(`cache must be 'auto' or 'off' (got ${JSON.stringify(options.cache)}).`);
}

/** The region for a client BedrockModel builds: options, then clientConfig, then `AWS_REGION`, then the default. */
export function resolveRegion(options: BedrockModelOptions): NonNullable<BedrockRuntimeClientConfig['region']> {
  return (
    options.region ?? options.clientConfig?.region ?? (process.env['AWS_REGION'] || undefined) ?? DEFAULT_BEDROCK_REGION
  );
}
