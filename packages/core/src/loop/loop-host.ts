import type { AgentHandle } from '../agent/agent-handle.js';
import type { AgentEventData, RequestState } from '../agent/agent-events.js';
import type { RunPlace } from '../events/event-place.js';
import type { ConversationManager } from '../conversation/conversation-manager.js';
import type { Handoff } from '../agent/handoff.js';
import type { HookRegistry } from '../hooks/hook-registry.js';
import type { AgentMetrics } from '../metrics/agent-metrics.js';
import type { Model, ToolChoice } from '../model/model.js';
import type { AgentTool } from '../tools/agent-tool.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { Message } from '../types/messages.js';
import type { PendingTurn, ResumeAnswers } from '../interrupt/pending-turn.js';
import type { RetryStrategy } from './retry-strategy.js';
import type { LoopBudget } from '../budget/loop-budget.js';
import type { GuardRun } from '../guardrails/guard-run.js';
import type { Principal } from '../doors/principal.js';
import type { MemoryTarget } from '../memory/memory-target.js';

/** An agent as the loop and an invocation's bounds use it: the interface, with its whole conversation manager. */
export type LoopAgent = AgentHandle & {
  readonly conversationManager: ConversationManager;
};

/** What the event loop needs of an agent (kept internal; the Agent builds it once). */
export interface LoopHost {
  readonly agent: AgentHandle;
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
  /** Appends a message and fires `MessageAddedEvent`: a promise only when a hook runs (await it then). */
  appendMessage(message: Message): Promise<void> | undefined;
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
  /** The invocation's abort signal (made on first use: check `aborted` instead where that is all it takes). */
  readonly signal: AbortSignal;
  /** True once the invocation was aborted (the caller, `cancel()`, an early end); makes no signal. */
  readonly aborted: boolean;
  /** True once `signal` was made. */
  readonly signalMade: boolean;
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
   * no listeners): the loop then does not make the per-cycle events (model stream, tools, messages).
   */
  readonly unobserved: boolean;
  /**
   * Hands an event to whoever watches: the listeners and the callback handler at once, then the
   * reader of `stream()`, whose next request settles the promise (it rejects with `StreamClosed`
   * when the reader stopped). `undefined` when nothing has to be awaited.
   */
  readonly emit: (event: AgentEventData) => Promise<void> | undefined;
  /**
   * Where the agents this invocation's tools run (`asTool`) stand in the run tree, when someone can
   * see their events (a stream reader, a callback handler or a `toolStream` listener, and the depth
   * limit reaches them); `undefined`: they run without making events.
   */
  readonly nested: RunPlace | undefined;
  /** The caller's `InvokeOptions.onMessageAdded`: told of each message appended, events or not. */
  readonly onMessageAdded: ((message: Message) => void) | undefined;
  /** Who calls the tools of this invocation, for their idempotency keys (see `InvokeOptions.idempotencyScope`). */
  readonly idempotencyScope: string;
  /** The guardrails of this invocation (`undefined`: none applies, and the loop does no guardrail work). */
  readonly guards: GuardRun | undefined;
  /** Who asked (`InvokeOptions.principal`): tools read it, agents they run inherit it. */
  readonly principal: Principal | undefined;
  /** Whose long-term memory this invocation reads and writes (`InvokeOptions.memory`). */
  readonly memory?: MemoryTarget | undefined;
  /** Where this invocation runs in the run tree (its events' `path`). */
  readonly path: string;
}

/** The history an agent hands the loop (its conversation). */
interface LoopHistory {
  readonly messages: Message[];
  append(message: Message): Promise<void> | undefined;
  setPending(turn: PendingTurn | undefined): void;
}

/** What an agent hands the loop besides itself (its private parts). */
export type LoopHostParts = Pick<LoopHost, 'tools' | 'retryStrategy' | 'toolExecutor' | 'maxConcurrentTools'> & {
  readonly history: LoopHistory;
};

/** The loop's view of `agent` (built once per agent, on its first invocation or direct tool call). */
export function createLoopHost(agent: LoopAgent, parts: LoopHostParts): LoopHost {
  return new AgentLoopHost(agent, parts);
}

/** A class rather than an object literal with a getter, which V8 builds on a slow path. */
class AgentLoopHost implements LoopHost {
  readonly agent: AgentHandle;
  readonly model: Model;
  readonly hooks: HookRegistry;
  readonly tools: ToolRegistry;
  readonly retryStrategy: RetryStrategy | undefined;
  readonly conversationManager: ConversationManager;
  readonly toolExecutor: 'concurrent' | 'sequential';
  readonly maxConcurrentTools: number;
  readonly #history: LoopHistory;

  constructor(agent: LoopAgent, parts: LoopHostParts) {
    this.agent = agent;
    this.model = agent.model;
    this.hooks = agent.hooks;
    this.tools = parts.tools;
    this.retryStrategy = parts.retryStrategy;
    this.conversationManager = agent.conversationManager;
    this.toolExecutor = parts.toolExecutor;
    this.maxConcurrentTools = parts.maxConcurrentTools;
    this.#history = parts.history;
  }

  get systemPrompt(): string | undefined {
    return this.agent.systemPrompt;
  }

  messages(): Message[] {
    return this.#history.messages;
  }

  appendMessage(message: Message): Promise<void> | undefined {
    return this.#history.append(message);
  }

  setPending(turn: PendingTurn | undefined): void {
    this.#history.setPending(turn);
  }
}
