/**
 * The `/v1` routes go to `@skein/server` as they are (it authorizes every request on the route it
 * serves, answers included); the desk only watches two of them: a conversation's first turn adds it
 * to the directory (whose it is, for the supervisor), and answers that start a turn tell the
 * customer's open page (`turn`). Beside them, what the pages need that the server does not offer: a
 * conversation's notices, its budget, and what waits across conversations. Conversation ids are per
 * customer (as the server keeps them): another customer's id is simply one of your own, unused.
 */
import type { Context, Hono } from 'hono';
import type { TargetKind } from '@skein/server';
import type { DeskWebContext } from './desk-web.js';
import { customerOf, isSupervisor, ON_BEHALF_HEADER, validCustomerId } from './identity.js';
import { readWaiting } from './waiting.js';
import { DeskStore } from '../desk-store.js';

function problem(c: Context, status: 401 | 403 | 404, title: string, detail: string): Response {
  return c.json({ type: `https://skein.dev/problems#desk-${status}`, title, status, detail }, status, {
    'content-type': 'application/problem+json',
  });
}

/** The session of `id` for the signed-in customer, or the 401 to answer. */
function customerSession(ctx: DeskWebContext, c: Context, id: string): string | Response {
  const customer = customerOf(c.req.raw, ctx.options.keys.cookie);
  if (customer === undefined) return problem(c, 401, 'Unauthorized', 'Sign in first (POST /sign-in).');
  return ctx.sessionOf(customer, id);
}

export function addApiRoutes(web: Hono, ctx: DeskWebContext): void {
  const conversation = '/v1/:kind/desk/conversations/:id';
  web.post(`${conversation}/:action{ui|messages}`, async (c) => {
    const response = await ctx.forward(c.req.raw);
    const customer = customerOf(c.req.raw, ctx.options.keys.cookie);
    if (response.ok && customer !== undefined && c.req.header(ON_BEHALF_HEADER) === undefined) {
      const id = c.req.param('id');
      await ctx.directory.add({
        id,
        sessionId: ctx.sessionOf(customer, id),
        customer,
        kind: c.req.param('kind') as TargetKind,
        createdAt: new Date().toISOString(),
      });
    }
    return response;
  });
  web.post(`${conversation}/answers`, async (c) => {
    const response = await ctx.forward(c.req.raw);
    // The turn the answer started (`x-skein-turn`): the customer's page re-joins it, also once it ended.
    const turn = Number(response.headers.get('x-skein-turn'));
    const customer = c.req.header(ON_BEHALF_HEADER) ?? customerOf(c.req.raw, ctx.options.keys.cookie);
    if (response.ok && turn > 0 && customer !== undefined && validCustomerId(customer))
      ctx.notices.publish(ctx.sessionOf(customer, c.req.param('id')), 'turn', { turn });
    return response;
  });
  web.all('/v1/*', (c) => ctx.forward(c.req.raw));
  web.get('/openapi.json', (c) => ctx.forward(c.req.raw));

  web.get('/desk/api/conversations/:id/notices', (c) => {
    const session = customerSession(ctx, c, c.req.param('id'));
    return typeof session === 'string' ? ctx.notices.response(session) : session;
  });
  web.get('/desk/api/conversations/:id/budget', (c) => {
    const session = customerSession(ctx, c, c.req.param('id'));
    return typeof session === 'string' ? c.json(ctx.budgetView(session)) : session;
  });
  web.get('/desk/api/waiting', async (c) => {
    if (!isSupervisor(c.req.raw, ctx.options.keys.supervisor))
      return problem(c, 401, 'Unauthorized', 'Open the supervisor address the desk printed.');
    const origin = new URL(c.req.url).origin;
    const cookie = c.req.header('cookie') ?? '';
    const shop = new DeskStore(ctx.options.dir);
    return c.json(await readWaiting(ctx.forward, origin, await ctx.directory.list(), cookie, shop));
  });
}
