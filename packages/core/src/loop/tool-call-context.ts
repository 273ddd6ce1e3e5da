import type { AgentHandle } from '../agent/agent-handle.js';
import type { ToolContext } from '../tools/agent-tool.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { JsonValue } from '../types/json.js';
import type { ToolUse } from '../types/messages.js';
import { idempotencyKey } from './idempotency-key.js';
import type { Invocation, LoopHost } from './loop-host.js';

/** The context a tool call receives. A class so that the idempotency key costs nothing until a tool reads it. */
export class ToolCallContext implements ToolContext {
  readonly agent: AgentHandle;
  readonly toolUse: ToolUse;
  readonly invocationState: InvocationState;
  readonly signal: AbortSignal;
  readonly interrupt: ToolContext['interrupt'];
  readonly #inv: Invocation;
  readonly #host: LoopHost;
  #key: string | undefined;

  constructor(
    host: LoopHost,
    inv: Invocation,
    toolUse: ToolUse,
    interrupt: (name: string, reason?: JsonValue) => JsonValue,
  ) {
    this.agent = host.agent;
    this.toolUse = toolUse;
    this.invocationState = inv.invocationState;
    this.signal = inv.signal;
    this.interrupt = interrupt as ToolContext['interrupt'];
    this.#inv = inv;
    this.#host = host;
  }

  get idempotencyKey(): string {
    this.#key ??= idempotencyKey(
      this.#inv.idempotencyScope,
      this.#host.messages(),
      this.#host.conversationManager.removedMessageCount,
      this.toolUse,
    );
    return this.#key;
  }
}
