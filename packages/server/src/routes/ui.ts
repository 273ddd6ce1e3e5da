/**
 * `POST /v1/{kind}/{name}/conversations/{id}/ui`: the AI SDK UI message stream, for `useChat` /
 * `Chat` with `DefaultChatTransport({ api: '/v1/agents/<name>/conversations/<id>/ui' })`. The same turn
 * and events as `.../messages`, mapped to UI chunks. Re-join: `GET .../stream?format=ui`.
 */
import type { Context } from 'hono';
import { ProblemError } from '../http/problem.js';
import { conversationRoute, traceParentOf } from '../http/route-context.js';
import { uiBodySchema } from '../http/schemas.js';
import { parseWith, readJsonBody } from '../http/validate.js';
import { beginTurn } from '../runs/begin-turn.js';
import type { ServerContext } from '../server-context.js';
import { sseResponse } from '../stream/sse-response.js';
import { promptOfUiRequest } from '../ui/ui-request.js';
import { turnHeaders } from './respond.js';

export async function postUi(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await conversationRoute(ctx, c, 'ui');
  const body = parseWith(uiBodySchema, await readJsonBody(c.req.raw, ctx.limits), 'body');
  const prompt = promptOfUiRequest(body);
  if (
    prompt.kind === 'message' &&
    typeof prompt.message === 'string' &&
    prompt.message.length > ctx.limits.maxMessageChars
  ) {
    throw new ProblemError(
      413,
      'message-too-large',
      'Message too large',
      `The last message holds ${prompt.message.length} characters; send at most ${ctx.limits.maxMessageChars} (limits.maxMessageChars).`,
      {
        field: `body.messages.${body.messages.length - 1}`,
      },
    );
  }
  const turn = await beginTurn(ctx, route, prompt, { wait: false, counted: true, traceParent: traceParentOf(c) });
  if (!turn) throw new Error('unreachable: a UI request always opens a turn');
  return sseResponse(c, turn.log, {
    from: 0,
    format: 'ui',
    heartbeatMs: ctx.limits.heartbeatMs,
    headers: turnHeaders(turn),
  });
}
