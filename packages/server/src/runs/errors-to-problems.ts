/** Core errors a request can meet before its turn runs, as problem documents; anything else stays an error (a 500). */
import { InterruptResponseError, SessionConflictError, SessionNotFoundError } from '@skein/core';
import { ProblemError } from '../http/problem.js';

/** When a client told that another process holds the conversation should try again, seconds. */
const BUSY_RETRY_S = 1;

/** The problem document of a core error met before a turn runs (a conflict in the store, a missing session, answers that do not fit). */
export function toProblem(error: unknown, conversationId: string): unknown {
  if (error instanceof ProblemError) return error;
  if (SessionConflictError.is(error)) {
    return new ProblemError(
      409,
      'conversation-busy',
      'Another writer holds the conversation',
      `Conversation ${conversationId} is being written by another server process: a turn runs there (the store's lock or lease says so; a process that died is found gone within seconds). Retry in ${BUSY_RETRY_S} s, send the message with "wait": true to wait for that turn to end, or send the request to the process that runs it.`,
      { field: 'path.id', retryAfter: BUSY_RETRY_S },
    );
  }
  if (SessionNotFoundError.is(error)) {
    return new ProblemError(404, 'not-found', 'Not found', `Conversation ${conversationId} was not found.`, {
      field: 'path.id',
    });
  }
  if (InterruptResponseError.is(error)) {
    return new ProblemError(
      422,
      'answers-mismatch',
      'The answers do not fit what waits',
      `${error.message} Answer exactly the pending interrupts (GET .../pending lists them).`,
      { field: 'body.answers', pending: [...error.pendingIds] },
    );
  }
  return error;
}
