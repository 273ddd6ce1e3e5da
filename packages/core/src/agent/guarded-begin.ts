/**
 * The start of an invocation with input guardrails: the prompt is checked before it enters the
 * history. A block records nothing of the prompt (the trip's markers take its place when the
 * invocation closes); parallel checks leave the prompt held until the first model call's end.
 */
import { checkInput } from '../guardrails/input-guard.js';
import { emitTrip } from '../guardrails/tripwire.js';
import { BeforeInvocationEvent } from '../hooks/events.js';
import type { Message } from '../types/messages.js';
import type { Agent } from './agent.js';
import type { Conversation } from './conversation.js';
import type { OpenInvocation } from './invocation.js';
import { promptToMessages, type Prompt } from './prompt.js';

/** True when `inv` has input guardrails to run on a new prompt. */
export function checksInput(inv: OpenInvocation['inv']): boolean {
  const guards = inv.guards;
  return guards !== undefined && !inv.resume && (guards.input.length > 0 || guards.parallelInput.length > 0);
}

/** Fires BeforeInvocationEvent, checks the prompt, and opens the turn with what passed (`show` hands on its events). */
export async function guardedBegin(
  agent: Agent,
  conversation: Conversation,
  prompt: Prompt | undefined,
  inv: OpenInvocation['inv'],
  show: (opened: Message[] | Promise<Message[]>) => Promise<void>,
): Promise<void> {
  if (agent.hooks.has(BeforeInvocationEvent))
    await agent.hooks.invoke(new BeforeInvocationEvent(agent, inv.invocationState));
  const messages = promptToMessages(prompt);
  const guards = inv.guards;
  if (!guards || messages.length === 0) return show(conversation.open(prompt));
  const outcome = await checkInput(guards, messages, conversation.pending === undefined);
  if ('tripped' in outcome) {
    // Any plain prompt closes a turn that waits for answers; the blocked one does too (its markers follow).
    if (conversation.pending) await show(conversation.open([]));
    await emitTrip(inv.emit, inv.unobserved, outcome.tripped);
    throw outcome.tripped;
  }
  if (!outcome.held) await show(conversation.open(outcome.messages));
}
