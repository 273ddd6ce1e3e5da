/** Core errors a request can meet before its turn runs, as problem documents; anything else stays an error (a 500). */
import { InterruptResponseError, SessionConflictError, SessionNotFoundError } from '@skein/core';
import { ProblemError } from '../http/problem.js';

export function toProblem(error: unknown, conversationId: string): unknown {
  if (error instanceof ProblemError) return error;
  if (SessionConflictError.is(error)) {
    return new ProblemError(
      409,
      'conversation-busy',
      'Another writer holds the conversation',
      `Conversation ${conversationId} is being written by another server process (its store's lock or lease); try again when its turn ends, or send the request to the process that runs it.`,
      { field: 'path.id' },
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
