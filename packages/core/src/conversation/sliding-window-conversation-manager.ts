import type { AgentHandle } from '../agent/agent-handle.js';
import { ConfigurationError } from '../errors/configuration-errors.js';
import { BeforeModelCallEvent } from '../hooks/events.js';
import type { HookRegistry } from '../hooks/hook-registry.js';
import type { Message } from '../types/messages.js';
import { BaseConversationManager } from './conversation-manager.js';
import { isValidStart } from './tool-pairs.js';

/** Options of {@link SlidingWindowConversationManager}. */
export interface SlidingWindowOptions {
  /** How many messages to keep. Default 40. */
  windowSize?: number;
  /** On a context overflow, first replace the newest tool results with a placeholder. Default true. */
  shouldTruncateResults?: boolean;
  /** Also manage during the loop: `true` before every model call, `N` before every Nth. Default false. */
  perTurn?: boolean | number;
}

/** What a truncated tool result says instead of its content. */
export const TRUNCATED_TOOL_RESULT = 'The tool result was too large!';

/**
 * Keeps the last `windowSize` messages. Never starts the window on a tool result (its toolUse would be
 * gone) nor on a toolUse whose result is not kept; on overflow it truncates tool results, then trims.
 */
export class SlidingWindowConversationManager extends BaseConversationManager {
  readonly windowSize: number;
  readonly shouldTruncateResults: boolean;
  readonly perTurn: boolean | number;
  #modelCalls = 0;

  constructor(options: SlidingWindowOptions = {}) {
    super();
    this.windowSize = options.windowSize ?? 40;
    this.shouldTruncateResults = options.shouldTruncateResults ?? true;
    this.perTurn = options.perTurn ?? false;
    if (!Number.isInteger(this.windowSize) || this.windowSize < 1) {
      throw new ConfigurationError(`windowSize must be an integer >= 1 (got ${String(options.windowSize)}).`);
    }
    if (typeof this.perTurn === 'number' && (!Number.isInteger(this.perTurn) || this.perTurn < 1)) {
      throw new ConfigurationError(`perTurn must be true, false or an integer > 0 (got ${this.perTurn}).`);
    }
  }

  override registerHooks(registry: HookRegistry): void {
    if (this.perTurn === false) return;
    const every = this.perTurn === true ? 1 : this.perTurn;
    registry.addCallback(BeforeModelCallEvent, (event) => {
      this.#modelCalls++;
      if (this.#modelCalls % every === 0) this.applyManagement(event.agent);
    });
  }

  applyManagement(agent: AgentHandle): void {
    if (agent.messages.length > this.windowSize) this.#trim(agent.messages, agent.messages.length - this.windowSize);
  }

  reduceContext(agent: AgentHandle, error?: unknown): boolean {
    const messages = agent.messages;
    if (error !== undefined && this.shouldTruncateResults && truncateNewestToolResults(messages)) return true;
    const excess = messages.length - this.windowSize;
    return this.#trim(messages, excess > 0 ? excess : 2);
  }

  /** Removes at least `count` messages from the start, moving the cut forward to a valid start. */
  #trim(messages: Message[], count: number): boolean {
    let cut = count;
    while (cut < messages.length && !isValidStart(messages, cut)) cut++;
    if (cut >= messages.length) return false;
    messages.splice(0, cut);
    this.removedMessageCount += cut;
    return true;
  }
}

/** Replaces the content of the newest message's tool results that are not yet truncated; true if any changed. */
function truncateNewestToolResults(messages: Message[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    let changed = false;
    const content = message.content.map((block) => {
      if (!('toolResult' in block)) return block;
      const r = block.toolResult;
      const first = r.content[0];
      if (r.content.length === 1 && first && 'text' in first && first.text === TRUNCATED_TOOL_RESULT) return block;
      changed = true;
      return {
        toolResult: { toolUseId: r.toolUseId, status: 'error' as const, content: [{ text: TRUNCATED_TOOL_RESULT }] },
      };
    });
    if (changed) {
      messages[i] = { role: message.role, content };
      return true;
    }
  }
  return false;
}
