/**
 * A turn a guardrail blocked, answered as JSON: a problem document (422 `guardrail-tripped`) naming
 * the guardrail, where it fired and why, with the turn's result. Never a 500: the server and the
 * request worked; the content was refused.
 */
import { problemResponse, ProblemError } from '../http/problem.js';
import type { TurnResult } from './turn-result.js';

/** The problem document of a blocked turn. */
function blockedProblem(result: TurnResult): ProblemError {
  const trip = result.guardrail;
  const detail = `${result.failureReason ?? 'A guardrail blocked the turn.'} Nothing it blocked was stored or sent; send another message.`;
  return new ProblemError(422, 'guardrail-tripped', 'A guardrail blocked the turn', detail, {
    ...(trip ? { guardrail: trip.guardrail, where: trip.where, path: trip.path, reason: trip.reason } : {}),
    ...(trip?.tool !== undefined ? { tool: trip.tool } : {}),
    conversationId: result.conversationId,
    turn: result.turn,
    result,
  });
}

/** The response of a blocked turn (with the turn's headers). */
export function blockedResponse(result: TurnResult, headers: Record<string, string>, instance: string): Response {
  const response = problemResponse(blockedProblem(result).problem, instance);
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}
