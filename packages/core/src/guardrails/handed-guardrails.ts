/**
 * The guardrails a caller hands an agent it runs as a tool (`asTool`): its output and tool
 * guardrails (its own and those it was handed), as an orchestrator hands its nodes theirs. So what
 * the nested agent says and calls, which the caller's stream now shows, is checked as the caller's
 * own would be (a redaction rewrites it everywhere alike; a block ends the caller's turn too).
 */
import type { GuardRun } from './guard-run.js';
import type { InvocationGuardrails } from './guardrail.js';

const byContext = new WeakMap<object, InvocationGuardrails>();

/** Marks a tool call's context with the guardrails of the invocation running it (none: nothing to hand on). */
export function handGuardrails(context: object, guards: GuardRun | undefined): void {
  if (!guards || (guards.output.length === 0 && guards.tool.length === 0)) return;
  byContext.set(context, {
    outputGuardrails: guards.output,
    toolGuardrails: guards.tool,
    options: { maxRetries: guards.maxRetries, windowChars: guards.windowChars },
  });
}

/** The guardrails a tool call's caller hands the agent the tool runs, if any. */
export function handedGuardrails(context: object): InvocationGuardrails | undefined {
  return byContext.get(context);
}
