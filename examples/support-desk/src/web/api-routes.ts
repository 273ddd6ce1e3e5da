/**
 * The `/v1` routes go to `@skein/server` as they are; the desk only watches two of them: a
 * conversation's first turn adds it to the directory (whose it is, for the supervisor), and answers
 * that start a turn tell the customer's open page (`turn`). Beside them, what the pages need that the
 * server does not offer: a conversation's notices, its budget, and what waits across conversations.
 */
import type { Context, Hono } from 'hono';
import type { TargetKind } from '@skein/server';
import type { DeskWebContext } from './desk-web.js';
import { customerOf, isSupervisor, ON_BEHALF_HEADER } from './identity.js';
import { answersApprovals } from './ui-request-check.js';
import { readWaiting } from './waiting.js';
import { DeskStore } from '../desk-store.js';

/** The largest UI request the desk reads to check it (the server's own limit is 1 MiB by default). */
const MAX_UI_BODY = 1024 * 1024;

function problem(c: Context, status: 401 | 403 | 404, title: string, detail: string): Response {
  return c.json({ type: `https://skein.dev/problems#desk-${status}`, title, status, detail }, status, {
    'content-type': 'application/problem+json',
  });
}

/** The signed-in customer when `id` is new or theirs; else the problem to answer (another's is 404, as the server does). */
async function customerFor(ctx: DeskWebContext, c: Context, id: string): Promise<string | Response> {
  const customer = customerOf(c.req.raw);
  if (customer === undefined) return problem(c, 401, 'Unauthorized', 'Sign in first (POST /sign-in).');
  const entry = await ctx.directory.get(id);
  if (entry && entry.customer !== customer) return problem(c, 404, 'Not found', `Conversation ${id} was not found.`);
  return customer;
}

export function addApiRoutes(web: Hono, ctx: DeskWebContext): void {
  const conversation = '/v1/:kind/desk/conversations/:id';
  web.post(`${conversation}/:action{ui|messages}`, async (c) => {
    if (c.req.param('action') === 'ui' && (await answersApprovals(c.req.raw, MAX_UI_BODY)))
      return problem(c, 403, 'Forbidden', 'A person on the team answers approvals, on the supervisor page.');
    const response = await ctx.forward(c.req.raw);
    const customer = customerOf(c.req.raw);
    if (response.ok && customer !== undefined && c.req.header(ON_BEHALF_HEADER) === undefined) {
      const kind = c.req.param('kind') as TargetKind;
      await ctx.directory.add({ id: c.req.param('id'), customer, kind, createdAt: new Date().toISOString() });
    }
    return response;
  });
  web.post(`${conversation}/answers`, async (c) => {
    const response = await ctx.forward(c.req.raw);
    // The turn the answer started (`x-skein-turn`): the customer's page re-joins it, also once it ended.
    const turn = Number(response.headers.get('x-skein-turn'));
    if (response.ok && turn > 0) ctx.notices.publish(c.req.param('id'), 'turn', { turn });
    return response;
  });
  web.all('/v1/*', (c) => ctx.forward(c.req.raw));
  web.get('/openapi.json', (c) => ctx.forward(c.req.raw));

  web.get('/desk/api/conversations/:id/notices', async (c) => {
    const id = c.req.param('id');
    const customer = await customerFor(ctx, c, id);
    return typeof customer === 'string' ? ctx.notices.response(id) : customer;
  });
  web.get('/desk/api/conversations/:id/budget', async (c) => {
    const id = c.req.param('id');
    const customer = await customerFor(ctx, c, id);
    return typeof customer === 'string' ? c.json(ctx.budgetView(id)) : customer;
  });
  web.get('/desk/api/waiting', async (c) => {
    if (!isSupervisor(c.req.raw, ctx.options.supervisorKey))
      return problem(c, 401, 'Unauthorized', 'Open the supervisor address the desk printed.');
    const origin = new URL(c.req.url).origin;
    const cookie = c.req.header('cookie') ?? '';
    const shop = new DeskStore(ctx.options.dir);
    return c.json(await readWaiting(ctx.forward, origin, await ctx.directory.list(), cookie, shop));
  });
}
