/**
 * A turn's end as an MCP tool result: the answer text first, then a line with the conversation id
 * (what the client's model passes to continue), and `structuredContent` with the turn's summary
 * (`TURN_OUTPUT`: conversation, turn, status, text, what waits). A turn that waits says what waits
 * and how a second call answers it; one that failed or was blocked is an error result.
 */
import type { Interrupt } from '@skein/core';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { TurnResult } from '@skein/server';
import { z } from 'zod';
import { reasonText } from './elicitation.js';

/** The output schema of every tool: what `structuredContent` holds. */
export const TURN_OUTPUT = z.object({
  conversationId: z.string().describe('Pass it as conversationId to continue this conversation.'),
  turn: z.number().int(),
  status: z.string().describe('completed, interrupted (waits for an answer), failed, cancelled, blocked...'),
  text: z.string(),
  waiting: z
    .array(z.object({ id: z.string(), name: z.string(), reason: z.string(), source: z.string() }))
    .describe('What waits for an answer: call again with answers { <id>: <answer> }.'),
});

const ERROR_STATUSES = new Set(['failed', 'blocked', 'budgetExceeded', 'stopped']);

function waitingText(interrupts: readonly Interrupt[], conversationId: string): string {
  const lines = interrupts.map((i) => `- ${i.id}: ${i.name} from ${i.source}: ${reasonText(i)}`);
  const example = Object.fromEntries(
    interrupts.map((i) => [i.id, i.name === 'approval' ? { approved: true, message: '...' } : '...']),
  );
  return `It waits for an answer:\n${lines.join('\n')}\nTo answer, call this tool again with conversationId "${conversationId}" and answers ${JSON.stringify(example)} (approved: false denies).`;
}

/** The tool result of a finished turn. */
export function turnToolResult(result: TurnResult): CallToolResult {
  const waiting = result.status === 'interrupted' ? result.interrupts : [];
  const why = result.failureReason ?? result.guardrail?.reason;
  const text =
    result.text !== ''
      ? result.text
      : why !== undefined
        ? `The turn ended ${result.status}: ${why}`
        : `(${result.status})`;
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  if (waiting.length > 0) content.push({ type: 'text', text: waitingText(waiting, result.conversationId) });
  content.push({ type: 'text', text: `conversationId: ${result.conversationId}` });
  return {
    content,
    structuredContent: {
      conversationId: result.conversationId,
      turn: result.turn,
      status: result.status,
      text: result.text,
      waiting: waiting.map((i) => ({ id: i.id, name: i.name, reason: reasonText(i), source: i.source })),
    },
    ...(ERROR_STATUSES.has(result.status) ? { isError: true } : {}),
  };
}

/** An error result (a refused call: nothing was run or stored). */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
