import type { ToolSpec } from '../model/model.js';
import type { JsonValue } from '../types/json.js';
import type { ToolResult, ToolUse } from '../types/messages.js';
import type { InvocationState } from '../types/invocation-state.js';
import type { AgentHandle } from '../agent/agent-handle.js';

/** What a tool receives besides its input. */
export interface ToolContext {
  /** The agent running the tool (an `AgentHandle`: what a tool may read and call of it). */
  agent: AgentHandle;
  /** The model's request, with its id. */
  toolUse: ToolUse;
  /** The invocation state given to `invoke(prompt, { invocationState })`. */
  invocationState: InvocationState;
  /** Aborted when the invocation is cancelled or times out; pass it to fetch and friends. */
  signal: AbortSignal;
  /**
   * Asks a person. The first time, the invocation pauses (`stopReason: 'interrupt'`) with this
   * interrupt in `result.interrupts`; once resumed with an answer for it, returns the answer.
   * Do not catch what it throws: that is how the pause unwinds the tool.
   */
  interrupt<R extends JsonValue = JsonValue>(name: string, reason?: JsonValue): R;
  /**
   * A key for exactly-once effects: the same for this call when it is retried, resumed after a stop or
   * run again after a crash (same agent and run, same prompt of the conversation, same tool and input),
   * different for a new call. Pass it to a payment API or any service that deduplicates requests.
   */
  readonly idempotencyKey: string;
}

/** Whether a tool use needs a person's yes before it runs (`needsApproval`). */
export type NeedsApproval<I = JsonValue> = boolean | ((input: I, context: ToolContext) => boolean | Promise<boolean>);

/**
 * A tool an agent can run. Implement it directly for full control, or build one with `tool()`.
 * `invoke` validates its own input and returns the whole result; a throw becomes an error result.
 */
export interface AgentTool {
  readonly name: string;
  readonly spec: ToolSpec;
  /** Ask for approval (interrupt `approval`, answer `{ approved, message? }`) before running. */
  readonly needsApproval?: NeedsApproval;
  /** The agent behind a tool made with `agent.asTool()` (instrumentation follows it to nested agents). */
  readonly agent?: AgentHandle;
  invoke(input: JsonValue, context: ToolContext): Promise<ToolResult>;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Returns a message saying what is wrong with a tool name, or `undefined` when it is valid. */
export function checkToolName(name: string): string | undefined {
  if (NAME.test(name)) return undefined;
  return `Tool name ${JSON.stringify(name)} is invalid: use 1-64 characters from a-z, A-Z, 0-9, "_" and "-" (providers reject others).`;
}
