import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type ConverseCommandInput,
  type ConverseStreamCommandInput,
} from '@aws-sdk/client-bedrock-runtime';
import {
  CancelledError,
  ModelTransientError,
  type Model,
  type ModelRequest,
  type ModelStreamEvent,
  type SkeinError,
} from '@skein/core';
import { toCoreError, type ErrorContext } from './errors/to-skein-error.js';
import {
  DEFAULT_BEDROCK_MODEL_ID,
  resolveRegion,
  validateOptions,
  type BedrockModelOptions,
} from './bedrock-options.js';
import { fromConverseResponse, fromStreamEvent } from './stream/translate-converse-events.js';
import { toConverseInput, type RequestOptions } from './convert/to-converse-request.js';

function cancelled(signal: AbortSignal): CancelledError {
  return new CancelledError('The Bedrock model call was aborted through its AbortSignal.', { cause: signal.reason });
}

/**
 * A model on Amazon Bedrock, called through the Converse API of `@aws-sdk/client-bedrock-runtime`.
 * ConverseStream events become core stream events as they arrive; errors become core errors.
 * @example
 * import { Agent } from '@skein/core';
 * import { BedrockModel } from '@skein/model-bedrock';
 *
 * const model = new BedrockModel({ region: 'us-east-1', params: { maxTokens: 1024, temperature: 0.3 } });
 * const agent = new Agent({ model, systemPrompt: 'You are terse.' });
 * console.log(String(await agent.invoke('Name three primes.')));
 */
export class BedrockModel implements Model {
  /** The Bedrock model id or inference profile id this model calls. */
  readonly modelId: string;
  /** The SDK client: the one passed in, or one built with SDK retries off (`maxAttempts: 1`). */
  readonly client: BedrockRuntimeClient;
  /** Whether calls use ConverseStream (true) or Converse (false). */
  readonly streaming: boolean;
  /** `'auto'`: cache points are placed on every request (see the README). */
  readonly cache: 'auto' | 'off';
  readonly #request: RequestOptions;

  constructor(options: BedrockModelOptions = {}) {
    validateOptions(options);
    this.modelId = options.modelId ?? DEFAULT_BEDROCK_MODEL_ID;
    this.streaming = options.streaming ?? true;
    this.cache = options.cache ?? 'off';
    this.client =
      options.client ??
      new BedrockRuntimeClient({ maxAttempts: 1, ...options.clientConfig, region: resolveRegion(options) });
    const request: RequestOptions = {};
    if (options.params) request.params = structuredClone(options.params);
    if (options.guardrail) request.guardrail = { ...options.guardrail };
    if (options.cachePrompt) request.cachePrompt = options.cachePrompt;
    if (options.cacheTools) request.cacheTools = options.cacheTools;
    if (this.cache === 'auto') request.cache = 'auto';
    this.#request = request;
  }

  /** Streams the answer to `request` as core events; throws core model errors (see the README). */
  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const input = toConverseInput(this.modelId, request, this.#request);
    const { signal } = request;
    if (signal?.aborted) throw cancelled(signal);
    if (!this.streaming) {
      yield* await this.#converse(input, signal);
      return;
    }
    let response;
    try {
      response = await this.client.send(new ConverseStreamCommand(input), signal ? { abortSignal: signal } : {});
    } catch (error) {
      throw this.#fail(error, signal, {});
    }
    const context: ErrorContext = {
      requestId: response.$metadata.requestId,
      status: response.$metadata.httpStatusCode,
    };
    if (!response.stream) throw this.#fail(new Error('the response has no event stream'), signal, context);
    let stopped = false;
    try {
      for await (const raw of response.stream) {
        if (signal?.aborted) break;
        const event = fromStreamEvent(raw);
        if (event === undefined) continue;
        if ('messageStop' in event) stopped = true;
        yield event;
      }
    } catch (error) {
      throw this.#fail(error, signal, context);
    }
    // The SDK ends the iterator silently both on abort and on a cut connection.
    if (signal?.aborted) throw cancelled(signal);
    if (!stopped) {
      throw new ModelTransientError(
        `The Bedrock stream of ${this.modelId} ended before messageStop: the connection was cut and the answer is incomplete. The agent loop retries it.`,
        {
          ...(context.status === undefined ? {} : { status: context.status }),
          ...(context.requestId === undefined ? {} : { requestId: context.requestId }),
        },
      );
    }
  }

  async #converse(input: ConverseStreamCommandInput, signal: AbortSignal | undefined): Promise<ModelStreamEvent[]> {
    const converseInput: ConverseCommandInput = { ...input };
    if (input.guardrailConfig) {
      const { streamProcessingMode: _ignored, ...guardrail } = input.guardrailConfig;
      converseInput.guardrailConfig = guardrail;
    }
    try {
      const response = await this.client.send(
        new ConverseCommand(converseInput),
        signal ? { abortSignal: signal } : {},
      );
      return fromConverseResponse(response);
    } catch (error) {
      throw this.#fail(error, signal, {});
    }
  }

  #fail(error: unknown, signal: AbortSignal | undefined, context: ErrorContext): SkeinError {
    if (signal?.aborted) return cancelled(signal);
    return toCoreError(error, this.modelId, context);
  }
}
