import { guardRunFor, type AgentGuardrails, type GuardRun } from '../guardrails/guard-run.js';
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
  const { inv } = opened;
  return guardRunFor(
    own,
    options.guardrails,
    () => ({
      agent,
      invocationState: inv.invocationState,
      signal: () => inv.signal,
      // Who checks, and where in the whole conversation (removed messages count): a check's idempotency key.
      position: () =>
        `${inv.idempotencyScope}\u0000${agent.conversationManager.removedMessageCount + agent.messages.length}`,
      abort: (reason) => opened.abort(reason),
    }),
    options.principal,
  );
}
