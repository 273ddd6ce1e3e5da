import type { Agent } from '../agent/agent.js';
import type { AgentStreamEvent, RequestState } from '../agent/agent-events.js';
import type { ConversationManager } from '../conversation/conversation-manager.js';
import type { Handoff } from '../handoffs/handoff.js';
import type { HookRegistry } from '../hooks/hook-registry.js';
import type { AgentMetrics } from '../metrics/agent-metrics.js';
import type { Model, ToolChoice } from '../model/model.js';
import type { AgentTool, InvocationState } from '../tools/agent-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { Message } from '../types/messages.js';
import type { PendingTurn, ResumeAnswers } from '../interrupt/pending-turn.js';
import type { RetryStrategy } from './retry-strategy.js';
import type { LoopBudget } from '../budget/loop-budget.js';

/** What the event loop needs of an agent (kept internal; the Agent builds it once). */
export interface LoopHost {
  readonly agent: Agent;
  readonly model: Model;
  readonly systemPrompt: string | undefined;
  readonly hooks: HookRegistry;
  readonly tools: ToolRegistry;
  readonly retryStrategy: RetryStrategy | undefined;
  readonly conversationManager: ConversationManager;
  readonly toolExecutor: 'concurrent' | 'sequential';
  readonly maxConcurrentTools: number;
  /** The live history (appended to in place, never copied per cycle). */
  messages(): Message[];
  /** Appends a message, fires `MessageAddedEvent`, and returns the stream event to yield (await it: a promise when a hook runs). */
  appendMessage(message: Message): AgentStreamEvent | Promise<AgentStreamEvent>;
  /** Keeps a turn that waits for answers out of the history (or clears it with `undefined`). */
  setPending(turn: PendingTurn | undefined): void;
}

/** Tools offered for one invocation only (structured output). */
export interface InvocationTools {
  readonly tools: readonly AgentTool[];
  readonly toolChoice: ToolChoice | undefined;
  /** Checked after each turn's tools: `true` ends the invocation with `end_turn`. */
  shouldStop(): boolean;
}

/** The mutable state of one invocation. */
export interface Invocation {
  readonly signal: AbortSignal;
  readonly requestState: RequestState;
  readonly invocationState: InvocationState;
  readonly metrics: AgentMetrics;
  readonly extra: InvocationTools | undefined;
  /** The handoffs offered in this invocation. */
  readonly handoffs: readonly Handoff[];
  /** The paused turn this invocation resumes, with the answers. */
  readonly resume: ResumeAnswers | undefined;
  /** The run-tree budget this invocation draws from (`undefined`: no budget, no budget work). */
  readonly budget: LoopBudget | undefined;
  /**
   * True when nobody can see this invocation's stream events (`invoke` with no callback handler and
   * no listeners): the loop then skips yielding the per-cycle events (model stream, tools, messages),
   * each of which would otherwise travel through every generator layer only to be dropped.
   */
  readonly unobserved: boolean;
  /** Who calls the tools of this invocation, for their idempotency keys (see `InvokeOptions.idempotencyScope`). */
  readonly idempotencyScope: string;
}

/** What an agent hands the loop besides itself (its private parts). */
export type LoopHostParts = Pick<
  LoopHost,
  'tools' | 'retryStrategy' | 'toolExecutor' | 'maxConcurrentTools' | 'messages' | 'appendMessage' | 'setPending'
>;

/** The loop's view of `agent` (built once per agent, on its first invocation or direct tool call). */
export function createLoopHost(agent: Agent, parts: LoopHostParts): LoopHost {
  return {
    ...parts,
    agent,
    model: agent.model,
    get systemPrompt() {
      return agent.systemPrompt;
    },
    hooks: agent.hooks,
    conversationManager: agent.conversationManager,
  };
}
