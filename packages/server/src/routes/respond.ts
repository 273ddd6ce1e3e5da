/** The answer to a request that started a turn: its result as JSON when it ends, or its events as SSE at once. */
import type { Context } from 'hono';
import { wantsEventStream } from '../http/route-context.js';
import type { RunningTurn } from '../runs/run-registry.js';
import type { ServerContext } from '../server-context.js';
import { sseResponse } from '../stream/sse-response.js';

/** Headers that say which turn a response belongs to. */
export function turnHeaders(turn: RunningTurn): Record<string, string> {
  return { 'x-skein-conversation': turn.conversationId, 'x-skein-turn': String(turn.turn) };
}

export async function respondWithTurn(ctx: ServerContext, c: Context, turn: RunningTurn): Promise<Response> {
  if (wantsEventStream(c)) {
    return sseResponse(c, turn.log, {
      from: 0,
      format: 'server',
      heartbeatMs: ctx.limits.heartbeatMs,
      headers: turnHeaders(turn),
    });
  }
  const result = await turn.done;
  return c.json(result, 200, turnHeaders(turn));
}
