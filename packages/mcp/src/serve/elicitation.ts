/**
 * What waits, as MCP elicitation: an approval (core's `needsApproval`, name `approval`) asks to approve
 * or deny with a note, any other interrupt asks for an answer in words. And back: the client's
 * accept becomes the interrupt's answer (`{ approved, message? }` for approvals); decline denies an
 * approval; cancel (or a decline of another interrupt) answers nothing, so the call ends saying what
 * waits. Pure functions.
 */
import type { Interrupt, JsonValue } from '@skein/core';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';

/** The reason of an interrupt, in words. */
export function reasonText(interrupt: Interrupt): string {
  return typeof interrupt.reason === 'string' ? interrupt.reason : JSON.stringify(interrupt.reason);
}

/** The form asking a person to answer `interrupt`. */
export function elicitationFor(interrupt: Interrupt): ElicitRequestFormParams {
  const tool = interrupt.toolUse
    ? ` (tool ${interrupt.toolUse.name}, input ${JSON.stringify(interrupt.toolUse.input)})`
    : '';
  if (interrupt.name === 'approval') {
    return {
      mode: 'form',
      message: `${interrupt.source} asks for approval${tool}: ${reasonText(interrupt)}`,
      requestedSchema: {
        type: 'object',
        properties: {
          approved: { type: 'boolean', title: 'Approve', description: 'Yes to let it go on, no to deny it.' },
          note: { type: 'string', title: 'Note', description: 'Optional: why, for the agent.' },
        },
        required: ['approved'],
      },
    };
  }
  return {
    mode: 'form',
    message: `${interrupt.source} asks (${interrupt.name})${tool}: ${reasonText(interrupt)}`,
    requestedSchema: {
      type: 'object',
      properties: { answer: { type: 'string', title: 'Answer' } },
      required: ['answer'],
    },
  };
}

/** The answer an elicitation result gives to `interrupt`, or `undefined` when it gives none. */
export function answerFrom(interrupt: Interrupt, result: ElicitResult): JsonValue | undefined {
  const content = result.content ?? {};
  const note = typeof content['note'] === 'string' && content['note'] !== '' ? { message: content['note'] } : {};
  if (interrupt.name === 'approval') {
    if (result.action === 'decline') return { approved: false, ...note };
    if (result.action !== 'accept' || typeof content['approved'] !== 'boolean') return undefined;
    return { approved: content['approved'], ...note };
  }
  if (result.action !== 'accept' || typeof content['answer'] !== 'string') return undefined;
  return content['answer'];
}
