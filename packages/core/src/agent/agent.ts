import type { z } from 'zod';
import { NullConversationManager } from '../conversation/null-conversation-manager.js';
import { SlidingWindowConversationManager } from '../conversation/sliding-window-conversation-manager.js';
import type { ConversationManager } from '../conversation/conversation-manager.js';
import { CancelledError } from '../errors/cancellation-errors.js';
import { ConcurrencyError } from '../errors/orchestration-errors.js';
import { toHandoff, type Handoff } from './handoff.js';
import { AgentInitializedEvent } from '../hooks/events.js';
import { HookRegistry } from '../hooks/hook-registry.js';
import { runEventLoop, type LoopOutcome } from '../loop/event-loop.js';
import { createLoopHost, type InvocationTools, type LoopHost } from '../loop/loop-host.js';
import { agentSettings, type AgentSettings } from './agent-settings.js';
import type { Model } from '../model/model.js';
import type { SessionManager } from '../session/session-manager.js';
import { AgentState } from '../state/agent-state.js';
import type { AgentTool } from '../tools/agent-tool.js';
import { EventSource } from '../events/event-source.js';
import { isStreamClosed, LockstepStream } from '../events/lockstep-stream.js';
import { placeOf } from '../events/event-place.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import type { Message } from '../types/messages.js';
import type { AgentStreamEvent } from './agent-events.js';
import { checkAgentOptions, type AgentOptions } from './agent-options.js';
import { AgentResult } from './agent-result.js';
import { agentAsTool, type AsToolOptions } from './as-tool.js';
import { createDirectToolCaller, type DirectToolCaller } from './direct-tool-call.js';
import type { Prompt } from './prompt.js';
import type { Interrupt } from '../interrupt/interrupt.js';
import { registerPendingAccessor } from '../interrupt/pending-access.js';
import { registerHistoryAdopter } from './checked-history.js';
import { runStructuredOutput, type StructuredOutputOptions } from './structured-output.js';
import { Conversation } from './conversation.js';
import { OpenInvocation } from './invocation.js';
import { beginInvocation, closeInvocation } from './invocation-bounds.js';
import type { AgentHandle, DeriveOptions, InvokeOptions } from './agent-handle.js';
import { agentGuardrails, type AgentGuardrails } from '../guardrails/guard-run.js';
import { openGuards } from './invocation-guards.js';
import { attachMemory, registerToolAdder } from '../memory/agent-memory.js';

/**
 * An agent: a model, a system prompt, tools and a history, driven by the agent loop.
 * @example
 * const agent = new Agent({ model, tools: [calculator], systemPrompt: 'You are a helpful assistant.' });
 * const result = await agent.invoke('What is 25 * 48?');
 * console.log(String(result));
 */
export class Agent extends EventSource<AgentStreamEvent> implements AgentHandle {
  readonly name: string;
  readonly id: string;
  readonly description: string | undefined;
  readonly handoffDescription: string | undefined;
  readonly model: Model;
  systemPrompt: string | undefined;
  readonly sessionManager: SessionManager | undefined;
  // State, hooks and the default conversation manager are made on first use: an agent that is built
  // and not (yet) run costs only what it was given (a server may build its agents per request).
  #state: AgentState | undefined;
  #hooks: HookRegistry | undefined;
  #conversationManager: ConversationManager | undefined;

  readonly #conversation: Conversation;
  readonly #tools: ToolRegistry;
  readonly #handoffTargets: readonly (AgentHandle | Handoff)[];
  #handoffs: readonly Handoff[] | undefined;
  readonly #settings: AgentSettings;
  readonly #guardrails: AgentGuardrails | undefined;
  // Built on first use, so an agent nobody invokes (or calls a tool of) costs only its fields.
  #loopHost: LoopHost | undefined;
  #directToolCaller: DirectToolCaller | undefined;
  #opened: OpenInvocation | undefined;
  /** The AgentInitializedEvent's run; `true` once it finished (an invocation then need not wait for it). */
  #initialized: Promise<void> | true | undefined;

  constructor(options: AgentOptions) {
    super();
    checkAgentOptions(options);
    this.model = options.model;
    this.name = options.name ?? 'agent';
    this.id = options.id ?? 'default';
    this.description = options.description;
    this.handoffDescription = options.handoffDescription;
    this.systemPrompt = options.systemPrompt;
    if (options.state !== undefined) this.#state = new AgentState(options.state);
    this.#conversation = new Conversation(this, options.messages);
    this.#tools = new ToolRegistry(options.tools);
    this.#handoffTargets = options.handoffs ? [...options.handoffs] : NO_HANDOFFS;
    this.#conversationManager = options.conversationManager;
    this.sessionManager = options.sessionManager;
    this.#settings = agentSettings(options);
    this.#guardrails = agentGuardrails(options, options.tools);
    // The default manager (a sliding window managed after each invocation) registers no hooks.
    if (options.conversationManager) this.hooks.addHook(options.conversationManager);
    if (options.hooks) for (const provider of options.hooks) this.hooks.addHook(provider);
    if (this.sessionManager) this.hooks.addHook(this.sessionManager);
    if (options.memory) attachMemory(this, options.memory);
  }

  /** Always `'agent'` (an orchestrator's is `'multiAgent'`): what `runnableKind` tells them apart by. */
  get kind(): 'agent' {
    return 'agent';
  }

  /** Key-value state outside the conversation (JSON only). */
  get state(): AgentState {
    this.#state ??= new AgentState();
    return this.#state;
  }

  /** Register callbacks on lifecycle events. */
  get hooks(): HookRegistry {
    this.#hooks ??= new HookRegistry();
    return this.#hooks;
  }

  /** Keeps the history within the context window (default: a sliding window of 40 messages). */
  get conversationManager(): ConversationManager {
    this.#conversationManager ??= new SlidingWindowConversationManager();
    return this.#conversationManager;
  }

  static {
    // Session persistence reads and restores a paused turn through this (kept off the public API).
    registerPendingAccessor({
      get: (agent) => (#conversation in agent ? agent.#conversation.pending : undefined),
      set: (agent, turn) => {
        if (#conversation in agent) agent.#conversation.pending = turn;
      },
    });
    // A memory attached after construction (an orchestrator's, see `attachMemory`) adds its tools.
    registerToolAdder((agent, tools) => {
      if (!(#tools in agent)) return false;
      for (const t of tools) agent.#tools.add(t);
      return true;
    });
    // Orchestrators hand on a conversation they checked when it entered the run (see `setCheckedHistory`).
    registerHistoryAdopter((agent, messages) => {
      if (!(#conversation in agent)) return false;
      agent.#conversation.adopt(messages);
      return true;
    });
  }

  /** Call a tool directly: `await agent.tool.calculator({ expression: '1 + 1' })`. */
  get tool(): DirectToolCaller {
    this.#directToolCaller ??= createDirectToolCaller(this.#host, {
      recordByDefault: this.#settings.recordDirectToolCall,
      isRunning: () => this.isRunning,
      initialize: () => this.initialize(),
      scope: () => this.#defaultScope(),
    });
    return this.#directToolCaller;
  }

  /** What the event loop needs of this agent, built on first use. */
  get #host(): LoopHost {
    this.#loopHost ??= createLoopHost(this, {
      tools: this.#tools,
      retryStrategy: this.#settings.retryStrategy,
      toolExecutor: this.#settings.toolExecutor,
      maxConcurrentTools: this.#settings.maxConcurrentTools,
      history: this.#conversation,
    });
    return this.#loopHost;
  }

  /** The live conversation history. Change it through a conversation manager to keep sessions in sync. */
  get messages(): Message[] {
    return this.#conversation.messages;
  }

  set messages(messages: Message[]) {
    this.#conversation.messages = messages;
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
    return this.#conversation.pending?.interrupts ?? [];
  }

  /** True while an invocation runs. */
  get isRunning(): boolean {
    return this.#opened !== undefined;
  }

  /** Fires `AgentInitializedEvent` once (a session manager restores the agent then). Invocations call it. */
  initialize(): Promise<void> {
    if (this.#initialized === true) return Promise.resolve();
    this.#initialized ??= this.hooks.invoke(new AgentInitializedEvent(this)).then(
      () => {
        this.#initialized = true;
      },
      (error: unknown) => {
        this.#initialized = undefined;
        throw error;
      },
    );
    return this.#initialized;
  }

  /** Runs the agent loop on `prompt` and resolves with the result. */
  invoke(prompt?: Prompt, options: InvokeOptions = {}): Promise<AgentResult> {
    // An agent used as a tool by an agent whose stream someone reads hands its events to that stream.
    return this.#run(prompt, options, undefined, placeOf(options)?.reader);
  }

  /** Runs the agent loop, yielding events as they happen; the generator returns the result. */
  stream(prompt?: Prompt, options: InvokeOptions = {}): AsyncGenerator<AgentStreamEvent, AgentResult> {
    return new LockstepStream((reader) => this.#run(prompt, options, undefined, reader));
  }

  /** Asks the model for a value matching `schema` (forced tool call, one re-ask) and returns it, typed. */
  async structuredOutput<S extends z.ZodType>(
    schema: S,
    prompt?: Prompt,
    options: StructuredOutputOptions = {},
  ): Promise<z.output<S>> {
    return runStructuredOutput(schema, prompt, options, (p, extra) => this.#run(p, options, extra, undefined));
  }

  /** A fresh agent on this agent's model, with no history, tools, hooks, session or conversation manager. */
  derive(options: DeriveOptions = {}): Agent {
    const { systemPrompt } = options;
    return new Agent({
      model: this.model,
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      conversationManager: new NullConversationManager(),
    });
  }

  /** Wraps this agent as a tool another agent can call. */
  asTool(options: AsToolOptions = {}): AgentTool {
    return agentAsTool(this, options);
  }

  /** Who calls this agent's tools when the caller does not say: its session and its id. */
  #defaultScope(): string {
    return `${this.sessionManager?.sessionId ?? ''}/${this.id}`;
  }

  /** Cancels the running invocation; it ends with `stopReason: 'cancelled'`. */
  cancel(): void {
    this.#opened?.abort(new CancelledError('The agent was cancelled.'));
  }

  /** `reader`: the `stream()` reader's side, when the caller reads the events rather than only the result. */
  async #run(
    prompt: Prompt | undefined,
    options: InvokeOptions,
    extra: InvocationTools | undefined,
    reader: ((event: AgentStreamEvent) => Promise<void> | undefined) | undefined,
  ): Promise<AgentResult> {
    if (this.#opened) {
      throw new ConcurrencyError(
        `Agent ${this.name} is already running; wait for its invocation to finish (or use another Agent).`,
      );
    }
    const opened = new OpenInvocation(options, extra, reader, {
      name: this.name,
      handoffs: options.handoffs ? options.handoffs.map(toHandoff) : this.handoffs,
      callbackHandler: this.#settings.callbackHandler,
      listeners: this.listeners,
      defaultScope: this.#defaultScope(),
    });
    this.#opened = opened;
    const { inv } = opened;
    if (this.#guardrails || options.guardrails) inv.guards = openGuards(this, this.#guardrails, opened, options);
    let outcome: LoopOutcome | undefined;
    let error: unknown;
    try {
      if (this.#initialized !== true) await this.initialize();
      const begun = beginInvocation(this, this.#conversation, prompt, inv);
      if (begun) await begun;
      outcome = await runEventLoop(this.#host, inv);
      return opened.result(outcome);
    } catch (e) {
      // A reader that stopped reading ends the invocation early, as a generator's return() did: no error.
      if (!isStreamClosed(e)) error = e;
      throw e;
    } finally {
      const closed = closeInvocation(this, this.#conversation, opened, { outcome, error }, () => {
        this.#opened = undefined;
      });
      if (closed) await closed;
    }
  }
}

const NO_HANDOFFS: readonly (AgentHandle | Handoff)[] = Object.freeze([]);
