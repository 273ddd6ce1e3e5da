import type { z } from 'zod';
import { SlidingWindowConversationManager } from '../conversation/sliding-window-conversation-manager.js';
import type { ConversationManager } from '../conversation/conversation-manager.js';
import { closeDanglingToolUses } from '../conversation/tool-pairs.js';
import { CancelledError } from '../errors/cancellation-errors.js';
import { ConcurrencyError } from '../errors/orchestration-errors.js';
import { defaultHandoff, isHandoff, type Handoff } from '../handoffs/handoff.js';
import {
  AfterInvocationEvent,
  AgentInitializedEvent,
  BeforeInvocationEvent,
  MessageAddedEvent,
} from '../hooks/events.js';
import { HookRegistry } from '../hooks/hook-registry.js';
import { runEventLoop, type LoopOutcome } from '../loop/event-loop.js';
import type { Invocation, InvocationTools, LoopHost } from '../loop/loop-host.js';
import { defaultRetryStrategy, ExponentialBackoffRetry, type RetryStrategy } from '../loop/retry-strategy.js';
import { AgentMetrics } from '../metrics/agent-metrics.js';
import type { Model } from '../model/model.js';
import type { SessionManager } from '../session/session-manager.js';
import { AgentState } from '../state/agent-state.js';
import type { AgentTool, InvocationState } from '../tools/agent-tool.js';
import { Listeners, type ListenedType, type Listener } from '../events/listeners.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import type { Message } from '../types/messages.js';
import type { AgentStreamEvent, CallbackHandler } from './agent-events.js';
import { checkAgentOptions, type AgentOptions } from './agent-options.js';
import { AgentResult } from './agent-result.js';
import { agentAsTool, type AsToolOptions } from './as-tool.js';
import { createDirectToolCaller, type DirectToolCaller } from './direct-tool-call.js';
import { checkMessage, promptResponses, promptToMessages, type Prompt } from './prompt.js';
import type { Interrupt } from '../interrupt/interrupt.js';
import { registerPendingAccessor } from '../interrupt/pending-access.js';
import {
  checkResponses,
  resumeStopped,
  unansweredResults,
  type PendingTurn,
  type ResumeAnswers,
} from '../interrupt/pending-turn.js';
import { runStructuredOutput, type StructuredOutputOptions } from './structured-output.js';
import { LoopBudget } from '../budget/loop-budget.js';
import { openBudgetScope, type BudgetOption, type OpenScope } from '../budget/open-scope.js';

/** Options of one invocation. */
export interface InvokeOptions {
  /** Aborting it cancels the invocation, which then ends with `stopReason: 'cancelled'`. */
  signal?: AbortSignal;
  /** Values for tools and hooks (never sent to the model). */
  invocationState?: InvocationState;
  /** Handoffs offered in this invocation instead of the agent's own (orchestrators use this). */
  handoffs?: readonly (Agent | Handoff)[];
  /**
   * Limits over this invocation's whole tree (every agent it uses as a tool draws from them), or a
   * shared `RunBudget`. Reached: the invocation stops before its next model call with
   * `stopReason: 'budget_exceeded'`. Default: the budget of the run tree this invocation belongs to.
   */
  budget?: BudgetOption | undefined;
  /**
   * Who calls the tools of this invocation, the first part of their idempotency keys
   * (`context.idempotencyKey`). Default: the session id and the agent id. Orchestrators give each node
   * execution its own; an agent used as a tool gets the key of the call that runs it.
   */
  idempotencyScope?: string;
}

/**
 * An agent: a model, a system prompt, tools and a history, driven by the agent loop.
 * @example
 * const agent = new Agent({ model, tools: [calculator], systemPrompt: 'You are a helpful assistant.' });
 * const result = await agent.invoke('What is 25 * 48?');
 * console.log(String(result));
 */
export class Agent {
  readonly name: string;
  readonly id: string;
  readonly description: string | undefined;
  readonly handoffDescription: string | undefined;
  readonly model: Model;
  systemPrompt: string | undefined;
  /** Key-value state outside the conversation (JSON only). */
  readonly state: AgentState;
  /** Register callbacks on lifecycle events. */
  readonly hooks = new HookRegistry();
  readonly conversationManager: ConversationManager;
  readonly sessionManager: SessionManager | undefined;

  #messages: Message[];
  readonly #tools: ToolRegistry;
  readonly #handoffTargets: readonly (Agent | Handoff)[];
  #handoffs: readonly Handoff[] | undefined;
  readonly #callbackHandler: CallbackHandler | undefined;
  readonly #retryStrategy: RetryStrategy | undefined;
  readonly #toolExecutor: 'concurrent' | 'sequential';
  readonly #maxConcurrentTools: number;
  readonly #recordDirectToolCall: boolean;
  // Built on first use, so an agent nobody invokes (or calls a tool of) costs only its fields.
  #loopHost: LoopHost | undefined;
  #directToolCaller: DirectToolCaller | undefined;
  #running = false;
  #controller: AbortController | undefined;
  #initialized: Promise<void> | undefined;
  #listeners: Listeners<AgentStreamEvent> | undefined;
  #pending: PendingTurn | undefined;

  constructor(options: AgentOptions) {
    checkAgentOptions(options);
    this.model = options.model;
    this.name = options.name ?? 'agent';
    this.id = options.id ?? 'default';
    this.description = options.description;
    this.handoffDescription = options.handoffDescription;
    this.systemPrompt = options.systemPrompt;
    this.state = new AgentState(options.state);
    const messages = options.messages;
    if (messages) messages.forEach((m, i) => checkMessage(m, `messages[${i}]`));
    this.#messages = messages ? [...messages] : [];
    this.#tools = new ToolRegistry(options.tools);
    this.#handoffTargets = options.handoffs ? [...options.handoffs] : NO_HANDOFFS;
    this.#callbackHandler = options.callbackHandler;
    this.conversationManager = options.conversationManager ?? new SlidingWindowConversationManager();
    this.sessionManager = options.sessionManager;
    const retry = options.retryStrategy;
    this.#retryStrategy =
      retry === null
        ? undefined
        : retry === undefined
          ? defaultRetryStrategy()
          : 'nextDelay' in retry
            ? retry
            : new ExponentialBackoffRetry(retry);
    this.#toolExecutor = options.toolExecutor ?? 'concurrent';
    this.#maxConcurrentTools = options.maxConcurrentTools ?? 8;
    this.#recordDirectToolCall = options.recordDirectToolCall ?? true;
    this.hooks.addHook(this.conversationManager);
    if (options.hooks) for (const provider of options.hooks) this.hooks.addHook(provider);
    if (this.sessionManager) this.hooks.addHook(this.sessionManager);
  }

  static {
    // Session persistence reads and restores a paused turn through this (kept off the public API).
    registerPendingAccessor({
      get: (agent) => (#pending in agent ? agent.#pending : undefined),
      set: (agent, turn) => {
        if (#pending in agent) agent.#pending = turn;
      },
    });
  }

  /** Call a tool directly: `await agent.tool.calculator({ expression: '1 + 1' })`. */
  get tool(): DirectToolCaller {
    this.#directToolCaller ??= createDirectToolCaller(this.#host, {
      recordByDefault: this.#recordDirectToolCall,
      isRunning: () => this.#running,
      initialize: () => this.initialize(),
      scope: () => this.#defaultScope(),
    });
    return this.#directToolCaller;
  }

  /** What the event loop needs of this agent, built on first use. */
  get #host(): LoopHost {
    if (this.#loopHost) return this.#loopHost;
    const agent = this;
    this.#loopHost = {
      agent,
      model: this.model,
      get systemPrompt() {
        return agent.systemPrompt;
      },
      hooks: this.hooks,
      tools: this.#tools,
      retryStrategy: this.#retryStrategy,
      conversationManager: this.conversationManager,
      toolExecutor: this.#toolExecutor,
      maxConcurrentTools: this.#maxConcurrentTools,
      messages: () => agent.#messages,
      appendMessage: (message) => agent.#append(message),
      setPending: (turn) => agent.#setPending(turn),
    };
    return this.#loopHost;
  }

  /** The live conversation history. Change it through a conversation manager to keep sessions in sync. */
  get messages(): Message[] {
    return this.#messages;
  }

  set messages(messages: Message[]) {
    messages.forEach((m, i) => checkMessage(m, `messages[${i}]`));
    this.#messages = messages;
  }

  /** The agent's tools (its handoffs are not among them). */
  get tools(): readonly AgentTool[] {
    return this.#tools.list();
  }

  /** The handoffs this agent offers, plain agents turned into default handoffs. */
  get handoffs(): readonly Handoff[] {
    this.#handoffs ??= this.#handoffTargets.map(toHandoff);
    return this.#handoffs;
  }

  /** The interrupts waiting for an answer (empty when none): resume with `invoke([{ interruptResponse }])`. */
  get interrupts(): readonly Interrupt[] {
    return this.#pending?.interrupts ?? [];
  }

  /** True while an invocation runs. */
  get isRunning(): boolean {
    return this.#running;
  }

  /** Fires `AgentInitializedEvent` once (a session manager restores the agent then). Invocations call it. */
  initialize(): Promise<void> {
    this.#initialized ??= this.hooks.invoke(new AgentInitializedEvent(this)).then(
      () => undefined,
      (error: unknown) => {
        this.#initialized = undefined;
        throw error;
      },
    );
    return this.#initialized;
  }

  /** Runs the agent loop on `prompt` and resolves with the result. */
  async invoke(prompt?: Prompt, options: InvokeOptions = {}): Promise<AgentResult> {
    return drain(this.#run(prompt, options, undefined, false));
  }

  /** Runs the agent loop, yielding events as they happen; the generator returns the result. */
  stream(prompt?: Prompt, options: InvokeOptions = {}): AsyncGenerator<AgentStreamEvent, AgentResult> {
    return this.#run(prompt, options, undefined, true);
  }

  /** Asks the model for a value matching `schema` (forced tool call, one re-ask) and returns it, typed. */
  async structuredOutput<S extends z.ZodType>(
    schema: S,
    prompt?: Prompt,
    options: StructuredOutputOptions = {},
  ): Promise<z.output<S>> {
    return runStructuredOutput(schema, prompt, options, (p, extra) => drain(this.#run(p, options, extra, false)));
  }

  /** Wraps this agent as a tool another agent can call. */
  asTool(options: AsToolOptions = {}): AgentTool {
    return agentAsTool(this, options);
  }

  /**
   * Calls `listener` with every event of `type` this agent streams (whether the caller uses
   * `invoke` or `stream`). A listener that throws does not stop the run; its error goes to the
   * `error` listeners, else to a process warning.
   * @example agent.on('toolStart', (e) => console.log('tool', e.toolUse.name));
   */
  on<T extends ListenedType<AgentStreamEvent>>(type: T, listener: Listener<AgentStreamEvent, T>): this {
    (this.#listeners ??= new Listeners()).on(type, listener);
    return this;
  }

  /** Like `on`, for the next event of `type` only. */
  once<T extends ListenedType<AgentStreamEvent>>(type: T, listener: Listener<AgentStreamEvent, T>): this {
    (this.#listeners ??= new Listeners()).on(type, listener, true);
    return this;
  }

  /** Removes a listener added with `on` or `once`. */
  off<T extends ListenedType<AgentStreamEvent>>(type: T, listener: Listener<AgentStreamEvent, T>): this {
    this.#listeners?.off(type, listener);
    return this;
  }

  /** Who calls this agent's tools when the caller does not say: its session and its id. */
  #defaultScope(): string {
    return `${this.sessionManager?.sessionId ?? ''}/${this.id}`;
  }

  /** Cancels the running invocation; it ends with `stopReason: 'cancelled'`. */
  cancel(): void {
    this.#controller?.abort(new CancelledError('The agent was cancelled.'));
  }

  #setPending(turn: PendingTurn | undefined): void {
    if (turn) {
      const at = this.#messages.lastIndexOf(turn.message);
      if (at >= 0) this.#messages.splice(at, 1);
    }
    this.#pending = turn;
  }

  /** Closes a pending turn nobody answered: its uses get error results saying no answer came. */
  async #closePending(turn: PendingTurn): Promise<AgentStreamEvent[]> {
    this.#pending = undefined;
    const asked = await this.#append(turn.message);
    return [
      asked,
      await this.#append({ role: 'user', content: unansweredResults(turn).map((toolResult) => ({ toolResult })) }),
    ];
  }

  /** Appends `message`; a promise only when a MessageAddedEvent hook has to run (callers await either). */
  #append(message: Message): AgentStreamEvent | Promise<AgentStreamEvent> {
    this.#messages.push(message);
    const event: AgentStreamEvent = { type: 'messageAdded', message };
    if (!this.hooks.has(MessageAddedEvent)) return event;
    return this.hooks.invoke(new MessageAddedEvent(this, message)).then(() => event);
  }

  /** `streamed`: the caller reads the events (`stream`), rather than only the result (`invoke`). */
  async *#run(
    prompt: Prompt | undefined,
    options: InvokeOptions,
    extra: InvocationTools | undefined,
    streamed: boolean,
  ): AsyncGenerator<AgentStreamEvent, AgentResult> {
    if (this.#running) {
      throw new ConcurrencyError(
        `Agent ${this.name} is already running; wait for its invocation to finish (or use another Agent).`,
      );
    }
    this.#running = true;
    const controller = new AbortController();
    this.#controller = controller;
    const onAbort = (): void => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    const handler = this.#callbackHandler;
    const listeners = this.#listeners;
    const inv: { -readonly [K in keyof Invocation]: Invocation[K] } = {
      signal: controller.signal,
      requestState: {},
      invocationState: options.invocationState ?? {},
      metrics: new AgentMetrics(),
      extra,
      handoffs: options.handoffs ? options.handoffs.map(toHandoff) : this.handoffs,
      resume: undefined,
      budget: undefined,
      // Listeners added during the run go to a Listeners object made then, which this run never emits to.
      unobserved: !streamed && !handler && !listeners,
      idempotencyScope: options.idempotencyScope ?? this.#defaultScope(),
    };
    const budgetScope: OpenScope | undefined =
      options.budget !== undefined || options.invocationState !== undefined
        ? openBudgetScope(
            options.budget,
            inv.invocationState,
            this.name,
            'agent',
            options.invocationState === undefined,
          )
        : undefined;
    if (budgetScope) inv.budget = new LoopBudget(budgetScope.scope);
    const started = performance.now();
    const emit =
      handler || listeners
        ? (e: AgentStreamEvent): AgentStreamEvent => {
            listeners?.emit(e);
            if (handler) handler({ ...e, requestState: inv.requestState });
            return e;
          }
        : undefined;
    let outcome: LoopOutcome | undefined;
    let error: unknown;
    try {
      await this.initialize();
      // Answers are checked before anything changes; a plain prompt closes what waits unanswered.
      const responses = promptResponses(prompt);
      if (responses) inv.resume = checkResponses(this.#pending, responses);
      // No prompt: a turn the budget stopped between its tool uses goes on where it stopped.
      else if (prompt === undefined && this.#pending?.interrupts.length === 0)
        inv.resume = resumeStopped(this.#pending);
      if (this.hooks.has(BeforeInvocationEvent))
        await this.hooks.invoke(new BeforeInvocationEvent(this, inv.invocationState));
      if (!inv.resume && this.#pending) {
        for (const event of await this.#closePending(this.#pending)) yield emit ? emit(event) : event;
      }
      if (!responses) {
        for (const message of promptToMessages(prompt)) {
          const event = await this.#append(message);
          yield emit ? emit(event) : event;
        }
      }
      const loop = runEventLoop(this.#host, inv);
      for (let step = await loop.next(); ; step = await loop.next()) {
        if (step.done) {
          outcome = step.value;
          break;
        }
        yield emit ? emit(step.value) : step.value;
      }
      return new AgentResult({
        stopReason: outcome.stopReason,
        message: outcome.message,
        metrics: inv.metrics,
        state: inv.requestState,
        ...(outcome.handoff ? { handoff: outcome.handoff } : {}),
        ...(outcome.interrupts ? { interrupts: outcome.interrupts } : {}),
        ...(budgetScope ? { usage: budgetScope.scope.tree() } : {}),
        ...(outcome.budgetExceeded ? { budgetExceeded: outcome.budgetExceeded } : {}),
      });
    } catch (e) {
      error = e;
      throw e;
    } finally {
      const cleanup: unknown[] = [];
      if (!outcome) {
        controller.abort(new CancelledError('The invocation ended early.'));
        const closing = closeDanglingToolUses(
          this.#messages,
          'Tool call interrupted: the invocation ended before the tool finished.',
        );
        if (closing) await this.#settle(() => this.#append(closing), cleanup);
      }
      options.signal?.removeEventListener('abort', onAbort);
      budgetScope?.close();
      inv.metrics.durationMs = performance.now() - started;
      await this.#settle(() => this.conversationManager.applyManagement(this), cleanup);
      this.#controller = undefined;
      this.#running = false;
      if (this.hooks.has(AfterInvocationEvent)) {
        const event = new AfterInvocationEvent(this, {
          invocationState: inv.invocationState,
          ...(outcome ? { stopReason: outcome.stopReason } : {}),
          ...(error !== undefined ? { error } : {}),
        });
        await this.#settle(() => this.hooks.invoke(event), cleanup);
      }
      if (cleanup.length > 0) {
        // The invocation's own error wins; failures while cleaning up ride along on it as `suppressed`.
        if (error === undefined) throw cleanup[0];
        if (typeof error === 'object' && error !== null && Object.isExtensible(error)) {
          Object.defineProperty(error, 'suppressed', { value: cleanup, enumerable: false, configurable: true });
        }
      }
    }
  }

  async #settle(step: () => unknown, errors: unknown[]): Promise<void> {
    try {
      await step();
    } catch (e) {
      errors.push(e);
    }
  }
}

const NO_HANDOFFS: readonly (Agent | Handoff)[] = Object.freeze([]);

function toHandoff(target: Agent | Handoff): Handoff {
  return isHandoff(target) ? target : defaultHandoff(target);
}

async function drain<R>(gen: AsyncGenerator<unknown, R>): Promise<R> {
  for (let step = await gen.next(); ; step = await gen.next()) if (step.done) return step.value;
}
