import type { CallbackHandler } from './agent-events.js';
import { resolveRetryStrategy, type RetryStrategy } from '../loop/retry-strategy.js';
import type { AgentOptions } from './agent-options.js';

/** How an agent runs its loop, from its options (callback handler, retries, tool execution). */
export interface AgentSettings {
  readonly callbackHandler: CallbackHandler | undefined;
  readonly retryStrategy: RetryStrategy | undefined;
  readonly toolExecutor: 'concurrent' | 'sequential';
  readonly maxConcurrentTools: number;
  readonly recordDirectToolCall: boolean;
}

let defaults: AgentSettings | undefined;

/**
 * The settings of `options`. Agents that set none of them share one object (an agent is then five
 * fields smaller: it matters to applications that build thousands of agents).
 */
export function agentSettings(options: AgentOptions): AgentSettings {
  const { callbackHandler, retryStrategy, toolExecutor, maxConcurrentTools, recordDirectToolCall } = options;
  const none =
    callbackHandler === undefined &&
    retryStrategy === undefined &&
    toolExecutor === undefined &&
    maxConcurrentTools === undefined &&
    recordDirectToolCall === undefined;
  if (none && defaults) return defaults;
  const settings: AgentSettings = {
    callbackHandler,
    retryStrategy: resolveRetryStrategy(retryStrategy),
    toolExecutor: toolExecutor ?? 'concurrent',
    maxConcurrentTools: maxConcurrentTools ?? 8,
    recordDirectToolCall: recordDirectToolCall ?? true,
  };
  if (none) defaults = Object.freeze(settings);
  return settings;
}
