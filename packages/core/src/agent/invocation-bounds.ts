/**
 * An agent invocation's opening and closing, around the event loop: what happens before the loop
 * (answers checked, `BeforeInvocationEvent`, the prompt appended) and after it, whatever happened
 * (dangling tool uses closed, the conversation manager applied, `AfterInvocationEvent`).
 */
import { closeDanglingToolUses } from '../conversation/tool-pairs.js';
import { CancelledError } from '../errors/cancellation-errors.js';
import { AfterInvocationEvent, BeforeInvocationEvent } from '../hooks/events.js';
import type { LoopOutcome } from '../loop/event-loop.js';
import type { LoopAgent } from '../loop/loop-host.js';
import type { Conversation } from './conversation.js';
import { Cleanup, type OpenInvocation } from './invocation.js';
import type { Prompt } from './prompt.js';
import type { Message } from '../types/messages.js';

/**
 * Before the loop: checks answers against the pending turn (before anything changes) or resumes a
 * turn the budget stopped, fires BeforeInvocationEvent, then, when nothing resumes, closes a pending
 * turn left unanswered and appends the prompt, handing on their `messageAdded` events. A promise only
 * when something must be waited for (a hook, a pending turn, a reader): the usual start is synchronous.
 */
export function beginInvocation(
  agent: LoopAgent,
  conversation: Conversation,
  prompt: Prompt | undefined,
  inv: OpenInvocation['inv'],
): Promise<void> | undefined {
  inv.resume = conversation.resumeFor(prompt);
  if (agent.hooks.has(BeforeInvocationEvent)) return hookedBegin(agent, conversation, prompt, inv);
  if (inv.resume) return undefined;
  const added = conversation.open(prompt);
  if (inv.unobserved && !(added instanceof Promise)) {
    if (inv.onMessageAdded) for (const message of added) inv.onMessageAdded(message);
    return undefined;
  }
  return showAdded(added, inv);
}

async function hookedBegin(
  agent: LoopAgent,
  conversation: Conversation,
  prompt: Prompt | undefined,
  inv: OpenInvocation['inv'],
): Promise<void> {
  await agent.hooks.invoke(new BeforeInvocationEvent(agent, inv.invocationState));
  if (inv.resume) return;
  await showAdded(conversation.open(prompt), inv);
}

/** Hands the `messageAdded` events of the messages a turn opened with to the watchers. */
async function showAdded(opened: Message[] | Promise<Message[]>, inv: OpenInvocation['inv']): Promise<void> {
  const added = await opened;
  if (inv.onMessageAdded) for (const message of added) inv.onMessageAdded(message);
  if (inv.unobserved) return;
  for (const message of added) {
    const shown = inv.emit({ type: 'messageAdded', message });
    if (shown) await shown;
  }
}

/**
 * After the loop, whatever happened: an invocation that ended early closes its dangling tool uses,
 * the conversation manager applies, `release` marks the agent idle, AfterInvocationEvent fires. Every
 * step is tried; the invocation's own error wins over theirs. A promise only when something must be
 * waited for (an early end, a manager that answers with one, a hook): the usual end is synchronous.
 */
export function closeInvocation(
  agent: LoopAgent,
  conversation: Conversation,
  opened: OpenInvocation,
  ended: { outcome: LoopOutcome | undefined; error: unknown },
  release: () => void,
): Promise<void> | undefined {
  const cleanup = new Cleanup();
  if (!ended.outcome) return closeEarly(agent, conversation, opened, ended, release, cleanup);
  opened.detach();
  const managed = cleanup.step(() => agent.conversationManager.applyManagement(agent));
  if (managed || agent.hooks.has(AfterInvocationEvent))
    return afterManaged(agent, opened, ended, release, cleanup, managed);
  release();
  cleanup.settle(ended.error);
  return undefined;
}

/** An invocation that ended early: cancelled, its dangling tool uses closed, then closed as usual. */
async function closeEarly(
  agent: LoopAgent,
  conversation: Conversation,
  opened: OpenInvocation,
  ended: { outcome: LoopOutcome | undefined; error: unknown },
  release: () => void,
  cleanup: Cleanup,
): Promise<void> {
  opened.abort(new CancelledError('The invocation ended early.'));
  const closing = closeDanglingToolUses(
    conversation.messages,
    'Tool call interrupted: the invocation ended before the tool finished.',
  );
  if (closing) await cleanup.step(() => conversation.append(closing));
  opened.detach();
  const managed = cleanup.step(() => agent.conversationManager.applyManagement(agent));
  await afterManaged(agent, opened, ended, release, cleanup, managed);
}

/** The rest of the close once the conversation manager ran (`managed`: its promise, if it gave one). */
async function afterManaged(
  agent: LoopAgent,
  opened: OpenInvocation,
  ended: { outcome: LoopOutcome | undefined; error: unknown },
  release: () => void,
  cleanup: Cleanup,
  managed: Promise<void> | undefined,
): Promise<void> {
  const { outcome, error } = ended;
  if (managed) await managed;
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
