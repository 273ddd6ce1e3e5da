import type { ConversationManager } from '../conversation/conversation-manager.js';
import { ConfigurationError } from '../errors/configuration-errors.js';
import type { Handoff } from './handoff.js';
import type { HookProvider } from '../hooks/hook-registry.js';
import type { RetryStrategy, RetryStrategyOptions } from '../loop/retry-strategy.js';
import type { Model } from '../model/model.js';
import type { SessionManager } from '../session/session-manager.js';
import type { AgentTool } from '../tools/agent-tool.js';
import type { JsonObject } from '../types/json.js';
import type { Message } from '../types/messages.js';
import type { CallbackHandler } from './agent-events.js';
import type { AgentHandle } from './agent-handle.js';
import { checkGuardrailOptions } from '../guardrails/check-guardrails.js';
import type { Guardrail, GuardrailOptions, InputSubject, OutputSubject, ToolSubject } from '../guardrails/guardrail.js';
import type { AgentMemory } from '../memory/agent-memory.js';

/** Options of `new Agent({...})`. Only `model` is required. */
export interface AgentOptions {
  /** The model that drives the agent, e.g. `new BedrockModel()` from `@skein/model-bedrock`. */
  model: Model;
  /** A human-readable name; handoff tools and graph nodes use it. Default `'agent'`. */
  name?: string;
  /** A stable id; sessions store the agent under it. Default `'default'`. */
  id?: string;
  /** What the agent does (used by `asTool()` and orchestrators). */
  description?: string;
  /** The system prompt sent with every model call. */
  systemPrompt?: string;
  /** Tools the model may call. */
  tools?: AgentTool[];
  /** The history to start from. */
  messages?: Message[];
  /** Initial agent state (JSON values only). */
  state?: JsonObject;
  /** Keeps the history within the context window. Default: a sliding window of 40 messages. */
  conversationManager?: ConversationManager;
  /** Persists this agent. Standalone agents only: give an orchestrator's session manager to the orchestrator. */
  sessionManager?: SessionManager;
  /** Hook providers to register. */
  hooks?: HookProvider[];
  /** Receives every stream event with the request state. */
  callbackHandler?: CallbackHandler;
  /** Retries of throttled model calls; `null` disables. Default: 6 attempts, 4 s doubling to 240 s, jitter. */
  retryStrategy?: RetryStrategy | RetryStrategyOptions | null;
  /** How the tool uses of one turn run. Default `'concurrent'`. */
  toolExecutor?: 'concurrent' | 'sequential';
  /** Upper bound of tools running at once with the concurrent executor. Default 8. */
  maxConcurrentTools?: number;
  /** Whether `agent.tool.x()` records the call in the history by default. Default true. */
  recordDirectToolCall?: boolean;
  /** Agents (or `handoff()`s) this agent may transfer the conversation to. */
  handoffs?: (AgentHandle | Handoff)[];
  /** Appended to the default handoff tool description of transfers to this agent. */
  handoffDescription?: string;
  /** Checked on each new prompt before the model sees it (or beside the first call, for `parallel` ones): pass, rewrite or block. */
  inputGuardrails?: Guardrail<InputSubject>[];
  /** Checked on windows of the streamed text and on each whole answer before anyone sees them: pass, rewrite, block or retry. */
  outputGuardrails?: Guardrail<OutputSubject>[];
  /** Checked on every tool call, before it runs and on its result: pass, rewrite, block or retry. */
  toolGuardrails?: Guardrail<ToolSubject>[];
  /** How guardrails apply: `maxRetries` (default 2), `windowChars` (default 200). */
  guardrailOptions?: GuardrailOptions;
  /** Long-term memory (`new Memory({...})` from `@skein/memory`), read and written under the resource each `invoke` names. */
  memory?: AgentMemory;
}

const KNOWN = new Set<string>([
  'model',
  'name',
  'id',
  'description',
  'systemPrompt',
  'tools',
  'messages',
  'state',
  'conversationManager',
  'sessionManager',
  'hooks',
  'callbackHandler',
  'retryStrategy',
  'toolExecutor',
  'maxConcurrentTools',
  'recordDirectToolCall',
  'handoffs',
  'handoffDescription',
  'inputGuardrails',
  'outputGuardrails',
  'toolGuardrails',
  'guardrailOptions',
  'memory',
]);

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** Checks agent options and says what to change; returns nothing, throws `ConfigurationError`. */
export function checkAgentOptions(options: AgentOptions | undefined): asserts options is AgentOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError(
      'new Agent() takes an options object, e.g. new Agent({ model, tools, systemPrompt }).',
    );
  }
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) {
    throw new ConfigurationError(
      `Unknown Agent option(s): ${unknown.join(', ')}. Known options: ${[...KNOWN].join(', ')}.`,
    );
  }
  const model = options.model as Partial<Model> | undefined;
  if (!model || typeof model.stream !== 'function') {
    throw new ConfigurationError(
      'An Agent needs a model: install a provider and pass it, e.g. new Agent({ model: new BedrockModel() }) from @skein/model-bedrock, ' +
        'or new AnthropicModel() from @skein/model-anthropic (ScriptedModel from @skein/core/testing for tests).',
    );
  }
  if (options.id !== undefined && (typeof options.id !== 'string' || !ID.test(options.id))) {
    throw new ConfigurationError(
      `Agent id ${shown(options.id)} is invalid: use 1-128 of A-Z a-z 0-9 _ . - starting with a letter or digit.`,
    );
  }
  checkShapes(options);
  checkGuardrailOptions(options, 'Agent option');
  if (
    options.toolExecutor !== undefined &&
    options.toolExecutor !== 'concurrent' &&
    options.toolExecutor !== 'sequential'
  ) {
    throw new ConfigurationError(
      `toolExecutor must be 'concurrent' or 'sequential' (got ${JSON.stringify(options.toolExecutor)}).`,
    );
  }
  const max = options.maxConcurrentTools;
  if (max !== undefined && (!Number.isInteger(max) || max < 1)) {
    throw new ConfigurationError(`maxConcurrentTools must be an integer >= 1 (got ${String(max)}).`);
  }
}

/** A value as an error message shows it: JSON, cut to 80 characters. */
function shown(value: unknown): string {
  const text =
    typeof value === 'string'
      ? JSON.stringify(value)
      : typeof value === 'function'
        ? 'a function'
        : String(JSON.stringify(value) ?? typeof value);
  return text.length > 80 ? `${text.slice(0, 77)}... (${text.length} characters)` : text;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const hasMethods = (value: unknown, ...names: string[]): boolean =>
  isObject(value) && names.every((n) => typeof value[n] === 'function');

/** The options of other types than strings and numbers: what a JavaScript caller can get wrong. */
function checkShapes(options: AgentOptions): void {
  const o = options as unknown as Record<string, unknown>;
  const wrong = (key: string, expected: string): never => {
    throw new ConfigurationError(`Agent option ${key} must be ${expected} (got ${shown(o[key])}).`);
  };
  for (const key of ['systemPrompt', 'description', 'handoffDescription'] as const)
    if (o[key] !== undefined && typeof o[key] !== 'string') wrong(key, 'a string');
  if (o['name'] !== undefined && (typeof o['name'] !== 'string' || o['name'] === ''))
    wrong('name', 'a non-empty string');
  if (o['recordDirectToolCall'] !== undefined && typeof o['recordDirectToolCall'] !== 'boolean')
    wrong('recordDirectToolCall', 'true or false');
  if (o['messages'] !== undefined && !Array.isArray(o['messages']))
    wrong('messages', 'an array of messages ({ role, content })');
  if (o['state'] !== undefined && (!isObject(o['state']) || Array.isArray(o['state'])))
    wrong('state', 'an object of JSON values');
  if (o['callbackHandler'] !== undefined && typeof o['callbackHandler'] !== 'function')
    wrong('callbackHandler', 'a function (event) => void');
  const retry = o['retryStrategy'];
  if (
    retry !== undefined &&
    retry !== null &&
    (!isObject(retry) || ('nextDelay' in retry && typeof retry['nextDelay'] !== 'function'))
  ) {
    wrong(
      'retryStrategy',
      'retry options ({ maxAttempts, initialDelayMs, ... }), a RetryStrategy ({ nextDelay }), or null',
    );
  }
  const hooks = o['hooks'];
  if (hooks !== undefined && (!Array.isArray(hooks) || !hooks.every((h) => hasMethods(h, 'registerHooks'))))
    wrong('hooks', 'an array of hook providers ({ registerHooks(registry) })');
  if (
    o['conversationManager'] !== undefined &&
    !hasMethods(o['conversationManager'], 'registerHooks', 'applyManagement', 'reduceContext')
  ) {
    wrong('conversationManager', 'a conversation manager (e.g. new SlidingWindowConversationManager())');
  }
  if (o['sessionManager'] !== undefined && !hasMethods(o['sessionManager'], 'registerHooks')) {
    wrong('sessionManager', 'a session manager (e.g. new FileSessionManager({ sessionId }) from @skein/session-file)');
  }
  if (
    o['memory'] !== undefined &&
    !(hasMethods(o['memory'], 'registerHooks', 'openTurn') && Array.isArray((o['memory'] as { tools?: unknown }).tools))
  )
    wrong('memory', 'a memory (new Memory({ store }) from @skein/memory)');
  const handoffs = o['handoffs'];
  const isTarget = (h: unknown): boolean =>
    isObject(h) && (h['kind'] === 'handoff' || (typeof h['name'] === 'string' && typeof h['invoke'] === 'function'));
  if (handoffs !== undefined && (!Array.isArray(handoffs) || !handoffs.every(isTarget)))
    wrong('handoffs', 'an array of agents or handoff(agent, {...})');
}
