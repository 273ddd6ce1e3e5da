import type { AgentHandle } from '../agent/agent-handle.js';
import { ConfigurationError } from '../errors/configuration-errors.js';
import type { HookProvider, HookRegistry } from '../hooks/hook-registry.js';
import type { JsonObject } from '../types/json.js';
import type { Message } from '../types/messages.js';
import type { ConversationSessionState } from './conversation-state.js';

/**
 * Keeps an agent's history within what the model can take.
 * - `applyManagement` runs after every invocation (and per turn where a manager registers hooks for it)
 * - `reduceContext` runs when the model reports a context-window overflow; it returns `false` when
 *   nothing more can be removed, and the overflow error then surfaces
 * - `removedMessageCount` counts messages removed from the start, so sessions load only the rest
 */
export interface ConversationManager extends HookProvider, ConversationSessionState {
  applyManagement(agent: AgentHandle): void | Promise<void>;
  reduceContext(agent: AgentHandle, error?: unknown): boolean | Promise<boolean>;
}

/** Shared bookkeeping of the built-in managers: the removed count and its persistence. */
export abstract class BaseConversationManager implements ConversationManager {
  removedMessageCount = 0;

  abstract applyManagement(agent: AgentHandle): void | Promise<void>;
  abstract reduceContext(agent: AgentHandle, error?: unknown): boolean | Promise<boolean>;

  registerHooks(_registry: HookRegistry): void {}

  getState(): JsonObject {
    return { __name__: this.constructor.name, removed_message_count: this.removedMessageCount };
  }

  restoreFromSession(state: JsonObject): Message[] | undefined {
    const name = state['__name__'];
    if (typeof name === 'string' && name !== this.constructor.name) {
      throw new ConfigurationError(
        `The session was written with a ${name} but this agent uses a ${this.constructor.name}; use the same conversation manager to restore it.`,
      );
    }
    const removed = state['removed_message_count'];
    this.removedMessageCount =
      typeof removed === 'number' && Number.isSafeInteger(removed) && removed >= 0 ? removed : 0;
    return undefined;
  }
}
