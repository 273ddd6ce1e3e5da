/**
 * What a `useChat` request asks for: the text of its last user message (a new turn), or the
 * tool-approval answers in its last assistant message (`addToolApprovalResponse`), as interrupt
 * answers. The server keeps the conversation, so the earlier messages the client sends are not read.
 */
import type { JsonValue } from '@skein/core';
import { badRequest } from '../http/problem.js';
import type { UiBody } from '../http/schemas.js';
import { answersPrompt, messagePrompt } from '../runs/prompt.js';
import type { TurnPrompt } from '../store/conversation-record.js';

type UiPart = UiBody['messages'][number]['parts'][number];

function approvalAnswer(part: UiPart): [string, JsonValue] | undefined {
  const isTool = part.type === 'dynamic-tool' || part.type.startsWith('tool-');
  if (!isTool || part['state'] !== 'approval-responded') return undefined;
  const approval = part['approval'];
  if (typeof approval !== 'object' || approval === null) return undefined;
  const { id, approved, reason } = approval as { id?: unknown; approved?: unknown; reason?: unknown };
  if (typeof id !== 'string' || typeof approved !== 'boolean') return undefined;
  return [id, typeof reason === 'string' && reason !== '' ? { approved, message: reason } : { approved }];
}

/** The turn a UI chat request asks for. */
export function promptOfUiRequest(body: UiBody): TurnPrompt {
  if (body.trigger !== undefined && body.trigger !== 'submit-message') {
    throw badRequest(
      'body.trigger',
      `is ${JSON.stringify(body.trigger.slice(0, 40))}; the server keeps the conversation and takes new messages and approvals (submit-message) only.`,
    );
  }
  const last = body.messages[body.messages.length - 1];
  if (!last) throw badRequest('body.messages', 'is empty.');
  const at = `body.messages.${body.messages.length - 1}`;
  if (last.role === 'assistant') {
    const answers = Object.fromEntries(last.parts.map(approvalAnswer).filter((a) => a !== undefined));
    if (Object.keys(answers).length === 0)
      throw badRequest(
        at,
        'is an assistant message without approval answers; send a user message, or answer the approval requests (addToolApprovalResponse).',
      );
    return answersPrompt(answers);
  }
  if (last.role !== 'user') throw badRequest(`${at}.role`, 'must be user (or assistant with approval answers).');
  const text = last.parts
    .filter((p) => p.type === 'text' && typeof p['text'] === 'string')
    .map((p) => String(p['text']))
    .join('\n');
  if (text.trim() === '') throw badRequest(`${at}.parts`, 'holds no text; send the message as text parts.');
  return messagePrompt(text);
}
