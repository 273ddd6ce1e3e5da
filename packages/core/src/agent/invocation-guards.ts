import { guardRunFor, type AgentGuardrails, type GuardHost, type GuardRun } from '../guardrails/guard-run.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { AgentHandle } from './agent-handle.js';
import type { OpenInvocation } from './invocation.js';
import type { InvokeOptions } from './agent-handle.js';

/**
 * The guardrails of one invocation of `agent`: its own (`own`) and those the caller added
 * (`options.guardrails`), or `undefined` when none applies.
 */
export function openGuards(
  agent: AgentHandle,
  own: AgentGuardrails | undefined,
  opened: OpenInvocation,
  options: InvokeOptions,
): GuardRun | undefined {
  return guardRunFor(own, options.guardrails, new InvocationHost(agent, opened), options.principal);
}

/** What an invocation offers its guardrails: a class, so that an invocation makes no closure for them. */
class InvocationHost implements GuardHost {
  readonly agent: AgentHandle;
  readonly #opened: OpenInvocation;

  constructor(agent: AgentHandle, opened: OpenInvocation) {
    this.agent = agent;
    this.#opened = opened;
  }

  get invocationState(): InvocationState {
    return this.#opened.inv.invocationState;
  }

  signal(): AbortSignal {
    return this.#opened.inv.signal;
  }

  /** Who checks, and where in the whole conversation (removed messages count): a check's idempotency key. */
  position(): string {
    const { agent } = this;
    return `${this.#opened.inv.idempotencyScope}\u0000${agent.conversationManager.removedMessageCount + agent.messages.length}`;
  }

  abort(reason: unknown): void {
    this.#opened.abort(reason);
  }
}
