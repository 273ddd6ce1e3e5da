import type { Message } from '../types/messages.js';

type Adopt = (agent: object, messages: Message[]) => boolean;

let adopt: Adopt | undefined;

/** Called once, by the Agent class: how `setCheckedHistory` reaches an agent's conversation. */
export function registerHistoryAdopter(fn: Adopt): void {
  adopt = fn;
}

/**
 * Sets `agent`'s live history to `messages` (the array itself, which the agent then appends to)
 * without checking each message again. For orchestrators that hand a conversation from agent to
 * agent and checked every message when it entered the run (a task, a stored turn, an input filter's
 * output), or got it from an agent: `agent.messages = messages` checks every message, a cost that
 * grows with the conversation on every handoff. Anything that is not an `Agent` gets the checked
 * assignment.
 */
export function setCheckedHistory(agent: { messages: Message[] }, messages: Message[]): void {
  if (!adopt?.(agent, messages)) agent.messages = messages;
}
