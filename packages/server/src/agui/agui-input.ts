/**
 * What an AG-UI `RunAgentInput` asks for, checked with `@ag-ui/core`'s own schema: `resume` entries
 * answer the interrupts the thread's last run ended with (`resolved` gives the entry's `payload`,
 * `cancelled` a refusal); otherwise the text of the last message, which must be the user's. The server
 * keeps the conversation, so the earlier messages the client sends (AG-UI clients send them all) are
 * not read; nor are `tools` (client-side tools), `context` or `state`.
 */
import type { ResumeEntry, RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import type { JsonValue } from '@skein/core';
import { badRequest } from '../http/problem.js';
import { parseWith } from '../http/validate.js';
import { answersPrompt, messagePrompt } from '../runs/prompt.js';
import type { TurnPrompt } from '../store/conversation-record.js';

/** A checked `RunAgentInput` (400 naming `body.<field>` when it is not one). */
export function parseRunAgentInput(body: unknown): RunAgentInput {
  return parseWith(RunAgentInputSchema, body, 'body') as RunAgentInput;
}

/**
 * The answer a resume entry gives its interrupt: `cancelled` refuses (`{ approved: false }`), `resolved`
 * gives its payload (`true` / `false` as `{ approved }`; no payload approves).
 */
function answerOf(entry: ResumeEntry): JsonValue {
  if (entry.status === 'cancelled') return { approved: false, message: 'Cancelled by the user.' };
  const payload: unknown = entry.payload;
  if (payload === undefined) return { approved: true };
  if (typeof payload === 'boolean') return { approved: payload };
  return payload as JsonValue;
}

/** The turn `input` asks for, and how many characters of text its message holds (for `maxMessageChars`). */
export function promptOfRunInput(input: RunAgentInput): { prompt: TurnPrompt; chars: number; field: string } {
  const resume = input.resume ?? [];
  if (resume.length > 0) {
    const answers: Record<string, JsonValue> = {};
    for (const [i, entry] of resume.entries()) {
      if (entry.interruptId in answers) throw badRequest(`body.resume.${i}.interruptId`, 'answers an interrupt twice.');
      answers[entry.interruptId] = answerOf(entry);
    }
    return { prompt: answersPrompt(answers), chars: 0, field: 'body.resume' };
  }
  const at = input.messages.length - 1;
  const last = input.messages[at];
  if (!last)
    throw badRequest('body.messages', 'is empty; send the user message (or resume entries answering interrupts).');
  if (last.role !== 'user')
    throw badRequest(
      `body.messages.${at}.role`,
      `is ${JSON.stringify(last.role)}; the last message must be the user's (the server keeps the conversation), or send resume entries.`,
    );
  const content = last.content;
  const text =
    typeof content === 'string'
      ? content
      : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  if (text.trim() === '')
    throw badRequest(`body.messages.${at}.content`, 'holds no text; send the message as text (or text parts).');
  return { prompt: messagePrompt(text), chars: text.length, field: `body.messages.${at}.content` };
}
