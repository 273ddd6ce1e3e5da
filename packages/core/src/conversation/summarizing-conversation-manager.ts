import type { AgentHandle } from '../agent/agent-handle.js';
import { ConfigurationError } from '../errors/configuration-errors.js';
import { ContextWindowOverflowError } from '../errors/model-errors.js';
import { errorMessage } from '../errors/error-message.js';
import type { JsonObject } from '../types/json.js';
import { messageText, type Message } from '../types/messages.js';
import { BaseConversationManager } from './conversation-manager.js';
import { isValidStart } from './tool-pairs.js';

/** Options of {@link SummarizingConversationManager}. */
export interface SummarizingOptions {
  /** Share of messages to summarize when reducing, clamped to 0.1..0.8. Default 0.3. */
  summaryRatio?: number;
  /** Messages always kept as they are. Default 10. */
  preserveRecentMessages?: number;
  /** An agent that writes the summary (e.g. a cheaper model). Not together with `summarizationSystemPrompt`. */
  summarizationAgent?: AgentHandle;
  /** The system prompt for summaries made with the agent's own model. Not together with `summarizationAgent`. */
  summarizationSystemPrompt?: string;
}

/** The default instructions for summaries. */
export const DEFAULT_SUMMARIZATION_PROMPT = `You summarize conversations so that they can continue without the original messages.
Write concise bullet points that keep: the user's goals and facts they gave, decisions made, tools used and what they returned,
names, numbers, file paths and identifiers, and open questions. Do not add anything that was not said. Do not address the user.`;

/**
 * On a context overflow, replaces the oldest messages with a summary written by a model, keeping the
 * most recent ones and never splitting a tool pair. A failed or empty summary leaves the history as it
 * was and surfaces the overflow with the reason.
 */
export class SummarizingConversationManager extends BaseConversationManager {
  readonly summaryRatio: number;
  readonly preserveRecentMessages: number;
  readonly #agent: AgentHandle | undefined;
  readonly #systemPrompt: string;
  #summary: Message | undefined;

  constructor(options: SummarizingOptions = {}) {
    super();
    if (options.summarizationAgent && options.summarizationSystemPrompt !== undefined) {
      throw new ConfigurationError(
        'Give either summarizationAgent or summarizationSystemPrompt, not both: the agent has its own system prompt.',
      );
    }
    this.summaryRatio = Math.min(0.8, Math.max(0.1, options.summaryRatio ?? 0.3));
    this.preserveRecentMessages = options.preserveRecentMessages ?? 10;
    if (!Number.isInteger(this.preserveRecentMessages) || this.preserveRecentMessages < 0) {
      throw new ConfigurationError(
        `preserveRecentMessages must be an integer >= 0 (got ${String(options.preserveRecentMessages)}).`,
      );
    }
    this.#agent = options.summarizationAgent;
    this.#systemPrompt = options.summarizationSystemPrompt ?? DEFAULT_SUMMARIZATION_PROMPT;
  }

  applyManagement(): void {}

  async reduceContext(agent: AgentHandle, error?: unknown): Promise<boolean> {
    const messages = agent.messages;
    let split = Math.min(
      Math.max(1, Math.floor(messages.length * this.summaryRatio)),
      messages.length - this.preserveRecentMessages,
    );
    if (split <= 0) return false;
    while (split < messages.length && !isValidStart(messages, split)) split++;
    if (split >= messages.length) return false;
    const older = messages.slice(0, split);
    let text: string;
    try {
      text = (await this.#summarize(agent, older)).trim();
    } catch (e) {
      throw new ContextWindowOverflowError(
        `The history could not be summarized (${errorMessage(e)}); it was left unchanged.`,
        { cause: error ?? e },
      );
    }
    if (!text)
      throw new ContextWindowOverflowError('The summary came back empty; the history was left unchanged.', {
        cause: error,
      });
    const summary: Message = { role: 'user', content: [{ text }] };
    const hadSummary = this.#summary !== undefined && messages[0] === this.#summary;
    messages.splice(0, split, summary);
    this.removedMessageCount += hadSummary ? split - 1 : split;
    this.#summary = summary;
    return true;
  }

  override getState(): JsonObject {
    const state = super.getState();
    if (this.#summary) state['summary_message'] = { role: 'user', content: [{ text: messageText(this.#summary) }] };
    return state;
  }

  override restoreFromSession(state: JsonObject): Message[] | undefined {
    super.restoreFromSession(state);
    const saved = state['summary_message'] as { content?: { text?: string }[] } | undefined;
    const text = saved?.content?.[0]?.text;
    if (typeof text !== 'string') return undefined;
    this.#summary = { role: 'user', content: [{ text }] };
    return [this.#summary];
  }

  async #summarize(agent: AgentHandle, older: Message[]): Promise<string> {
    const summarizer = this.#agent ?? agent.derive({ systemPrompt: this.#systemPrompt });
    const saved = summarizer.messages;
    summarizer.messages = [...older];
    try {
      const result = await summarizer.invoke('Summarize the conversation above as bullet points.');
      return String(result);
    } finally {
      summarizer.messages = saved;
    }
  }
}
