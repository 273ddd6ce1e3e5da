import type { Message } from '../types/messages.js';
import type { GuardRun } from './guard-run.js';

/**
 * The messages a guarded model call is sent: the history, the prompt held back while parallel input
 * checks run, and a retry's feedback added to the last user message. The history itself is not
 * changed: feedback is never stored, and the held prompt is stored only once the checks passed.
 */
export function requestMessages(history: Message[], guards: GuardRun): Message[] {
  const { unsent, feedback } = guards;
  if (!unsent && feedback === undefined) return history;
  const messages = unsent ? [...history, ...unsent] : [...history];
  if (feedback === undefined) return messages;
  const last = messages[messages.length - 1];
  if (last?.role === 'user')
    messages[messages.length - 1] = { ...last, content: [...last.content, { text: feedback }] };
  else messages.push({ role: 'user', content: [{ text: feedback }] });
  return messages;
}
