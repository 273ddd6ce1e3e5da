/**
 * What the server keeps of a turn's prompt once the turn ran: the prompt as the agent or
 * orchestrator stored it (a guardrail may have redacted it), never more than that. A turn's own
 * events say it (an agent's first user `messageAdded`), or an orchestrator's result (`rewrittenTask`).
 * A prompt a guardrail blocked is kept as a note naming the guardrail.
 */
import { messageText, type Message } from '@skein/core';
import type { CoreEvent } from '../stream/to-server-events.js';
import type { TurnPrompt } from '../store/conversation-record.js';
import type { TurnResult } from './turn-result.js';

/** Follows a turn's own events (at the root of its run tree) for the prompt as it was stored. */
export class StoredPrompt {
  #text: string | undefined;

  /** Looks at one event of the turn. */
  see(event: CoreEvent): void {
    if (this.#text !== undefined) return;
    if (event.type === 'messageAdded') {
      const message = event['message'] as Message;
      if (message.role === 'user' && message.content.some((b) => 'text' in b)) this.#text = messageText(message);
    }
  }

  /** Looks at the run's result (an orchestrator says there how its input guardrails rewrote the task). */
  seeResult(result: object): void {
    const rewritten = (result as { rewrittenTask?: unknown }).rewrittenTask;
    if (typeof rewritten === 'string') this.#text = rewritten;
  }

  /**
   * The prompt the record keeps: a note for a prompt a guardrail blocked, the stored (maybe redacted)
   * text when it differs from what was sent, else `prompt` unchanged.
   */
  kept(prompt: TurnPrompt, result: TurnResult): TurnPrompt {
    if (prompt.kind !== 'message') return prompt;
    if (result.status === 'blocked' && result.guardrail?.where === 'input')
      return { kind: 'message', message: `[withheld: guardrail ${result.guardrail.guardrail} blocked this message]` };
    const stored = this.#text;
    if (stored === undefined || typeof prompt.message !== 'string' || stored === prompt.message) return prompt;
    return { kind: 'message', message: stored };
  }
}
