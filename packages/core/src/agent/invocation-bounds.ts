/**
 * An agent invocation's opening and closing, around the event loop: what happens before the loop
 * (answers checked, `BeforeInvocationEvent`, the prompt appended) and after it, whatever happened
 * (dangling tool uses closed, the conversation manager applied, `AfterInvocationEvent`).
 */
import { closeDanglingToolUses } from '../conversation/tool-pairs.js';
import { CancelledError } from '../errors/cancellation-errors.js';
import { AfterInvocationEvent, BeforeInvocationEvent } from '../hooks/events.js';
import type { LoopOutcome } from '../loop/event-loop.js';
import type { Agent } from './agent.js';
import type { Conversation } from './conversation.js';
import { Cleanup, type OpenInvocation } from './invocation.js';
import type { Prompt } from './prompt.js';

/**
 * Before the loop: checks answers against the pending turn (before anything changes) or resumes a
 * turn the budget stopped, fires BeforeInvocationEvent, then, when nothing resumes, closes a pending
 * turn left unanswered and appends the prompt, handing on their `messageAdded` events.
 */
export async function beginInvocation(
  agent: Agent,
  conversation: Conversation,
  prompt: Prompt | undefined,
  inv: OpenInvocation['inv'],
): Promise<void> {
  inv.resume = conversation.resumeFor(prompt);
  if (agent.hooks.has(BeforeInvocationEvent))
    await agent.hooks.invoke(new BeforeInvocationEvent(agent, inv.invocationState));
  if (inv.resume) return;
  const added = await conversation.open(prompt);
  if (inv.unobserved) return;
  for (const message of added) {
    const shown = inv.emit({ type: 'messageAdded', message });
    if (shown) await shown;
  }
}

/**
 * After the loop, whatever happened: an invocation that ended early closes its dangling tool uses,
 * the conversation manager applies, `release` marks the agent idle, AfterInvocationEvent fires. Every
 * step is tried; the invocation's own error wins over theirs.
 */
export async function closeInvocation(
  agent: Agent,
  conversation: Conversation,
  opened: OpenInvocation,
  ended: { outcome: LoopOutcome | undefined; error: unknown },
  release: () => void,
): Promise<void> {
  const { outcome, error } = ended;
  const cleanup = new Cleanup();
  if (!outcome) {
    opened.abort(new CancelledError('The invocation ended early.'));
    const closing = closeDanglingToolUses(
      conversation.messages,
      'Tool call interrupted: the invocation ended before the tool finished.',
    );
    if (closing) await cleanup.step(() => conversation.append(closing));
  }
  opened.detach();
  await cleanup.step(() => agent.conversationManager.applyManagement(agent));
  release();
  if (agent.hooks.has(AfterInvocationEvent)) {
    const event = new AfterInvocationEvent(agent, {
      invocationState: opened.inv.invocationState,
      ...(outcome ? { stopReason: outcome.stopReason } : {}),
      ...(error !== undefined ? { error } : {}),
    });
    await cleanup.step(() => agent.hooks.invoke(event));
  }
  cleanup.settle(error);
}
