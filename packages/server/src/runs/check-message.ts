/**
 * The server's own input guardrails (`ServerOptions.inputGuardrails`): a client's message is checked
 * before the turn's record is written, so the store never holds what they redacted or blocked (not
 * even while the turn runs). Core's `guardTask` does the checking, as for an orchestrator's task.
 */
import { GuardrailTripped, guardTask, type Prompt } from '@skein/core';
import { ProblemError } from '../http/problem.js';
import type { ConversationRoute } from '../http/route-context.js';
import type { ServerContext } from '../server-context.js';
import type { TurnPrompt } from '../store/conversation-record.js';
import { messagePrompt } from './prompt.js';

/** `prompt` as the server's input guardrails leave it (the same object when they pass it unchanged); 422 when one blocks. */
export async function checkMessage(
  ctx: ServerContext,
  route: ConversationRoute,
  prompt: TurnPrompt | undefined,
): Promise<TurnPrompt | undefined> {
  const guardrails = ctx.options.inputGuardrails;
  if (!guardrails || guardrails.length === 0 || prompt?.kind !== 'message') return prompt;
  const task = prompt.message as Prompt;
  try {
    const checked = await guardTask(guardrails, task, {
      path: `${route.kind}/${route.name}`,
      principal: route.principal,
      invocationState: {},
      scope: `server:${route.sessionId}`,
    });
    return checked === task ? prompt : messagePrompt(checked as Parameters<typeof messagePrompt>[0]);
  } catch (error) {
    if (!GuardrailTripped.is(error)) throw error;
    throw new ProblemError(
      422,
      'guardrail-tripped',
      'A guardrail blocked the message',
      `${error.message} Nothing of the message was stored or sent; send another message.`,
      { guardrail: error.guardrail, where: error.where, path: error.path, reason: error.reason },
    );
  }
}
