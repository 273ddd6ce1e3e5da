import { ConfigurationError } from '../errors/configuration-errors.js';
import { checkModel, isDelegating, largestMaxTokens, type DelegatingModel } from './delegating-model.js';
import type { Model, ModelRequest, ModelStreamEvent } from './model.js';

/** What a route's `select` sees of one request. */
export interface RouteContext {
  /** The request itself (messages, system prompt, tool specs). */
  readonly request: ModelRequest;
  /** The name of the agent that asks (in a graph or swarm, the node's agent). */
  readonly agentName: string | undefined;
  /** How many tools the request offers. */
  readonly toolCount: number;
  /** A rough count of the request's tokens (characters / 4 of its text and tool input), computed when read. */
  readonly estimatedTokens: number;
}

/** Picks a model for one request: a key of `models`, or one of its models. */
export type RouteSelect<K extends string> = (context: RouteContext) => K | Model | undefined;

/** Characters of a request's text (system prompt, text blocks, tool inputs and results, tool specs). */
function estimateTokens(request: ModelRequest): number {
  let chars = request.systemPrompt?.length ?? 0;
  for (const message of request.messages)
    for (const block of message.content) {
      if ('text' in block) chars += block.text.length;
      else if ('toolUse' in block) chars += JSON.stringify(block.toolUse.input).length;
      else if ('toolResult' in block) chars += JSON.stringify(block.toolResult.content).length;
    }
  for (const spec of request.toolSpecs ?? [])
    chars += spec.description.length + JSON.stringify(spec.inputSchema).length;
  return Math.ceil(chars / 4);
}

/** The context `select` reads; the token estimate is computed only when read. */
class Context implements RouteContext {
  readonly request: ModelRequest;
  #tokens: number | undefined;
  constructor(request: ModelRequest) {
    this.request = request;
  }
  get agentName(): string | undefined {
    return this.request.agentName;
  }
  get toolCount(): number {
    return this.request.toolSpecs?.length ?? 0;
  }
  get estimatedTokens(): number {
    this.#tokens ??= estimateTokens(this.request);
    return this.#tokens;
  }
}

/** A model that picks one of its models per request; see {@link route}. */
class RouteModel<K extends string> implements DelegatingModel {
  readonly modelId: string;
  readonly models: readonly Model[];
  readonly maxTokens: number | undefined;
  readonly cache: 'auto' | 'off';
  readonly #select: RouteSelect<K>;
  readonly #byKey: Readonly<Record<K, Model>>;

  constructor(select: RouteSelect<K>, byKey: Readonly<Record<K, Model>>) {
    this.#select = select;
    this.#byKey = byKey;
    this.models = Object.values(byKey);
    this.modelId = `route(${Object.keys(byKey).join('|')})`;
    this.maxTokens = largestMaxTokens(this.models);
    this.cache = this.models.some((m) => m.cache === 'auto') ? 'auto' : 'off';
  }

  /** The model `select` picks for `request`; a `ConfigurationError` when it picks nothing known. */
  pick(request: ModelRequest): Model {
    const picked = this.#select(new Context(request));
    if (typeof picked === 'string' && Object.hasOwn(this.#byKey, picked)) return this.#byKey[picked as K];
    if (typeof picked === 'object' && picked !== null && this.models.includes(picked as Model)) return picked as Model;
    const who = request.agentName === undefined ? '' : ` for agent ${JSON.stringify(request.agentName)}`;
    throw new ConfigurationError(
      `route(): select returned ${picked === undefined ? 'nothing' : JSON.stringify(typeof picked === 'object' ? 'a model not in the route' : picked)}${who}; it must return one of ${Object.keys(
        this.#byKey,
      )
        .map((k) => JSON.stringify(k))
        .join(', ')} (or one of their models).`,
    );
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const model = this.pick(request);
    const startedAt = Date.now();
    const t0 = performance.now();
    const observer = request.observer;
    // A delegating model picked (a fallback chain) reports its own attempts.
    if (!observer || isDelegating(model)) {
      yield* model.stream(request);
      return;
    }
    try {
      yield* model.stream(request);
    } catch (error) {
      observer.attempt({ model, outcome: 'failed', error, startedAt, durationMs: performance.now() - t0 });
      throw error;
    }
    observer.attempt({ model, outcome: 'answered', startedAt, durationMs: performance.now() - t0 });
  }
}

/**
 * A model that picks one of `models` for each request with `select` (by the agent's name, the tool
 * count, a token estimate, the request itself). Composes with `fallback` both ways: a route of
 * chains, or a chain whose members are routes. `select` returning nothing (or an unknown key) is a
 * `ConfigurationError`.
 * @example
 * const model = route(({ agentName }) => (agentName === 'triage' ? 'fast' : 'strong'), {
 *   fast: new AnthropicModel({ modelId: 'claude-haiku-4-5' }),
 *   strong: fallback([new AnthropicModel(), new BedrockModel()]),
 * });
 */
export function route<K extends string>(select: RouteSelect<K>, models: Readonly<Record<K, Model>>): Model {
  if (typeof select !== 'function')
    throw new ConfigurationError(
      'route(select, models): select must be a function of the request context that returns a key of models.',
    );
  if (typeof models !== 'object' || models === null || Array.isArray(models))
    throw new ConfigurationError(
      'route(select, models): models must be an object of named models, e.g. { fast: haiku, strong: sonnet }.',
    );
  const keys = Object.keys(models);
  if (keys.length === 0)
    throw new ConfigurationError('route(select, models): models is empty; name at least one model.');
  for (const key of keys) checkModel((models as Record<string, unknown>)[key], `route(): models.${key}`);
  return new RouteModel(select, models);
}
