/**
 * The agent interface: what code around an agent may read and call of it. Hooks get it as
 * `event.agent`, tools as `context.agent`, conversation managers and session code as their argument,
 * handoffs as their target; whoever runs a handoff by hand invokes it. `Agent` implements it. This file
 * sits below everything that receives an agent (it imports only data types), so the hook, tool,
 * conversation, loop and session code depend on it rather than on the `Agent` class.
 */
import type { BudgetOption } from '../budget/open-scope.js';
import type { ConversationSessionState } from '../conversation/conversation-state.js';
import type { Handoff } from './handoff.js';
import type { HookRegistry } from '../hooks/hook-registry.js';
import type { Interrupt } from '../interrupt/interrupt.js';
import type { Model } from '../model/model.js';
import type { AgentState } from '../state/agent-state.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { Message } from '../types/messages.js';
import type { InvocationGuardrails } from '../guardrails/guardrail.js';
import type { Principal } from '../doors/principal.js';
import type { MemoryTarget } from '../memory/memory-target.js';
import type { AgentStreamEvent } from './agent-events.js';
import type { AgentResult } from './agent-result.js';
import type { Prompt } from './prompt.js';

/**
 * An agent as hooks, tools, conversation managers, sessions and handoffs see it: its identity, model,
 * history, state and hooks; it can be invoked, streamed, cancelled, and asked for a fresh agent on
 * the same model (`derive`). `Agent` implements it and adds the rest of its surface (`tools`,
 * `sessionManager`, `tool`, `asTool`, `structuredOutput`, listeners); `isAgent(value)` narrows a handle
 * to an `Agent`.
 */
export interface AgentHandle {
  /** Tells an agent from an orchestrator (`'multiAgent'`): see `runnableKind`. */
  readonly kind: 'agent';
  readonly name: string;
  readonly id: string;
  readonly description: string | undefined;
  readonly handoffDescription: string | undefined;
  readonly model: Model;
  systemPrompt: string | undefined;
  /** The live conversation history. */
  messages: Message[];
  /** Key-value state outside the conversation (JSON only). */
  readonly state: AgentState;
  /** Callbacks on lifecycle events. */
  readonly hooks: HookRegistry;
  /** What sessions store of the agent's conversation manager (the whole manager is `Agent.conversationManager`). */
  readonly conversationManager: ConversationSessionState;
  /** The handoffs this agent offers. */
  readonly handoffs: readonly Handoff[];
  /** The interrupts waiting for an answer (empty when none). */
  readonly interrupts: readonly Interrupt[];
  /** True while an invocation runs. */
  readonly isRunning: boolean;
  /** Fires `AgentInitializedEvent` once (a session manager restores the agent then). */
  initialize(): Promise<void>;
  /** Runs the agent loop on `prompt` and resolves with the result. */
  invoke(prompt?: Prompt, options?: InvokeOptions): Promise<AgentResult>;
  /** Runs the agent loop, yielding events as they happen; the generator returns the result. */
  stream(prompt?: Prompt, options?: InvokeOptions): AsyncGenerator<AgentStreamEvent, AgentResult>;
  /** Cancels the running invocation; it ends with `stopReason: 'cancelled'`. */
  cancel(): void;
  /** A fresh agent on this agent's model (see {@link DeriveOptions}). */
  derive(options?: DeriveOptions): AgentHandle;
}

/**
 * What `derive()` sets on the fresh agent. It runs on the same model and starts with no history,
 * tools, hooks, handoffs or session, and no conversation manager: its history stays exactly as the
 * caller sets it (a helper that works on a copy of a conversation, such as a summarizer, must not trim it).
 */
export interface DeriveOptions {
  systemPrompt?: string | undefined;
}

/** Options of one invocation. */
export interface InvokeOptions {
  /** Aborting it cancels the invocation, which then ends with `stopReason: 'cancelled'`. */
  signal?: AbortSignal;
  /** Values for tools and hooks (never sent to the model). */
  invocationState?: InvocationState;
  /** Handoffs offered in this invocation instead of the agent's own (orchestrators use this). */
  handoffs?: readonly (AgentHandle | Handoff)[];
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
  /**
   * Called with each message this invocation appends to the agent's history, in order: the prompt's
   * messages, the model's answers, the tool results (what `messageAdded` events carry), without
   * making any event. For orchestrators that need a turn's messages from `invoke()`.
   */
  onMessageAdded?: ((message: Message) => void) | undefined;
  /**
   * Guardrails checked in this invocation before the agent's own, and where it runs (`path`, for
   * `GuardrailTripped` and the guardrails' context). Orchestrators pass theirs to every node this way.
   */
  guardrails?: InvocationGuardrails | undefined;
  /** Who asked (a server's principal): guardrails read it as `context.principal`. */
  principal?: Principal | undefined;
  /**
   * Whose long-term memory this invocation reads and writes, for an agent with a `memory`: the
   * resource (a customer) and the thread (this conversation). Without it, the memory does nothing.
   */
  memory?: MemoryTarget | undefined;
  /**
   * How deep nested runs' events reach this stream (see `AgentStreamEvent`): `0` yields this agent's
   * own events only (agents it uses as tools then run without making events). Default: all.
   */
  depth?: number | undefined;
}
