/**
 * The start of an invocation with input guardrails: the prompt is checked before it enters the
 * history. A block records nothing of the prompt (the trip's markers take its place when the
 * invocation closes); parallel checks leave the prompt held until the first model call's end.
 */
import { checkInput, type InputOutcome } from '../guardrails/input-guard.js';
import type { GuardrailTripped } from '../errors/guardrail-errors.js';
import { emitTrip } from '../guardrails/tripwire.js';
import { BeforeInvocationEvent } from '../hooks/events.js';
import type { AgentHandle } from './agent-handle.js';
import type { Conversation } from './conversation.js';
import type { OpenInvocation } from './invocation.js';
import { promptToMessages, type Prompt } from './prompt.js';

/** True when `inv` has input guardrails to run on a new prompt. */
export function checksInput(inv: OpenInvocation['inv']): boolean {
  const guards = inv.guards;
  return guards !== undefined && !inv.resume && (guards.input.length > 0 || guards.parallelInput.length > 0);
}

/** Opens the turn with a prompt (the checked messages), handing on its events: a promise only when something must be waited for. */
export type OpenPrompt = (prompt: Prompt | undefined) => Promise<void> | undefined;

/**
 * Fires BeforeInvocationEvent, checks the prompt, and opens the turn with what passed (`open`). A
 * promise only when a hook, a check or an event's reader must be waited for.
 */
export function guardedBegin(
  agent: AgentHandle,
  conversation: Conversation,
  prompt: Prompt | undefined,
  inv: OpenInvocation['inv'],
  open: OpenPrompt,
): Promise<void> | undefined {
  if (!agent.hooks.has(BeforeInvocationEvent)) return checkPrompt(conversation, prompt, inv, open);
  return agent.hooks
    .invoke(new BeforeInvocationEvent(agent, inv.invocationState))
    .then(() => checkPrompt(conversation, prompt, inv, open));
}

function checkPrompt(
  conversation: Conversation,
  prompt: Prompt | undefined,
  inv: OpenInvocation['inv'],
  open: OpenPrompt,
): Promise<void> | undefined {
  const messages = promptToMessages(prompt);
  const guards = inv.guards;
  if (!guards || messages.length === 0) return open(prompt);
  const outcome = checkInput(guards, messages, conversation.pending === undefined);
  if (outcome instanceof Promise) return outcome.then((o) => opened(conversation, inv, o, open));
  return opened(conversation, inv, outcome, open);
}

function opened(
  conversation: Conversation,
  inv: OpenInvocation['inv'],
  outcome: InputOutcome,
  open: OpenPrompt,
): Promise<void> | undefined {
  if ('tripped' in outcome) return tripOut(conversation, inv, outcome.tripped, open);
  return outcome.held ? undefined : open(outcome.messages);
}

/** A blocked prompt: a turn that waits for answers is closed (as any plain prompt closes it), the trip told, then thrown. */
async function tripOut(
  conversation: Conversation,
  inv: OpenInvocation['inv'],
  tripped: GuardrailTripped,
  open: OpenPrompt,
): Promise<void> {
  if (conversation.pending) await open([]);
  await emitTrip(inv.emit, inv.unobserved, tripped);
  throw tripped;
}
