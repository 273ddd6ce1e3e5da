/**
 * `POST /v1/{kind}/{name}/conversations/{id}/messages` (a message starts a turn) and
 * `POST .../answers` (answers to what waits resume the paused run).
 */
import type { Context } from 'hono';
import { ProblemError } from '../http/problem.js';
import { conversationRoute, traceParentOf } from '../http/route-context.js';
import { answersBodySchema, messageBodySchema } from '../http/schemas.js';
import { parseWith, readJsonBody } from '../http/validate.js';
import { beginTurn } from '../runs/begin-turn.js';
import { answersPrompt, messageChars, messagePrompt } from '../runs/prompt.js';
import type { ServerContext } from '../server-context.js';
import { respondWithTurn } from './respond.js';

export async function postMessage(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await conversationRoute(ctx, c, 'message');
  const body = parseWith(messageBodySchema, await readJsonBody(c.req.raw, ctx.limits), 'body');
  const chars = messageChars(body.message);
  if (chars > ctx.limits.maxMessageChars) {
    throw new ProblemError(
      413,
      'message-too-large',
      'Message too large',
      `body.message holds ${chars} characters of text; send at most ${ctx.limits.maxMessageChars} (limits.maxMessageChars).`,
      {
        field: 'body.message',
      },
    );
  }
  const turn = await beginTurn(ctx, route, messagePrompt(body.message), {
    wait: body.wait === true,
    counted: true,
    traceParent: traceParentOf(c),
  });
  if (!turn) throw new Error('unreachable: a message always opens a turn');
  return respondWithTurn(ctx, c, turn);
}

export async function postAnswers(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await conversationRoute(ctx, c, 'answers');
  const body = parseWith(answersBodySchema, await readJsonBody(c.req.raw, ctx.limits), 'body');
  const turn = await beginTurn(ctx, route, answersPrompt(body.answers), {
    wait: body.wait === true,
    counted: true,
    traceParent: traceParentOf(c),
  });
  if (!turn) throw new Error('unreachable: answers always open a turn');
  return respondWithTurn(ctx, c, turn);
}
