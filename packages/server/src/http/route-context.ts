/**
 * What every `/v1/{kind}/{name}/...` route checks first, in this order: who asks, on the request as
 * routed (401/403), that the kind and name exist (404 naming `path.kind` / `path.name`), and that the
 * conversation id is safe (400 naming `path.id`). Nothing is read or written before these pass.
 */
import type { Context } from 'hono';
import { authorizeRequest, type Authorized } from '../auth/authorize.js';
import type { ServerAction, TargetKind } from '../options.js';
import type { ServerContext } from '../server-context.js';
import { parseTraceParent, type TraceParent } from '../telemetry/trace-parent.js';
import { notFound } from './problem.js';
import { conversationIdSchema } from './schemas.js';
import { parseWith } from './validate.js';

const KINDS: readonly string[] = ['agents', 'graphs', 'swarms'];

/** A checked target route. */
export interface TargetRoute extends Authorized {
  action: ServerAction;
  kind: TargetKind;
  name: string;
}

/** A checked conversation route. */
export interface ConversationRoute extends TargetRoute {
  /** The conversation as the client names it (what responses and problems say). */
  conversationId: string;
  /** Its session in the store, in the principal's namespace (what the store and the run registry are keyed by). */
  sessionId: string;
}

async function checkTarget(ctx: ServerContext, c: Context, action: ServerAction, id?: string): Promise<TargetRoute> {
  const kind = c.req.param('kind') ?? '';
  const name = c.req.param('name') ?? '';
  const route = { action, kind, name, ...(id === undefined ? {} : { conversationId: id }) };
  const authorized = await authorizeRequest(ctx.options, c.req.raw, route);
  if (!KINDS.includes(kind))
    throw notFound(`Kind ${JSON.stringify(kind.slice(0, 40))} (use agents, graphs or swarms)`, 'path.kind');
  if (!ctx.factory(kind as TargetKind, name))
    throw notFound(`${kind}/${JSON.stringify(name.slice(0, 80))}`, 'path.name');
  return { ...authorized, action, kind: kind as TargetKind, name };
}

/** Checks principal, kind and name (the routes without a conversation id). */
export function targetRoute(ctx: ServerContext, c: Context, action: ServerAction): Promise<TargetRoute> {
  return checkTarget(ctx, c, action);
}

/** Checks principal, kind, name and conversation id, and places the conversation in the principal's namespace. */
export async function conversationRoute(
  ctx: ServerContext,
  c: Context,
  action: ServerAction,
): Promise<ConversationRoute> {
  const raw = c.req.param('id') ?? '';
  return placeConversation(ctx, await checkTarget(ctx, c, action, raw), raw, 'path.id');
}

/**
 * Checks principal, kind and name for a conversation whose id the request carries elsewhere (AG-UI's
 * body `threadId`): `authorize` sees it as `route.conversationId`. Then {@link placeConversation}.
 */
export function targetRouteFor(
  ctx: ServerContext,
  c: Context,
  action: ServerAction,
  id: string | undefined,
): Promise<TargetRoute> {
  return checkTarget(ctx, c, action, id);
}

/** Checks a conversation id (400 naming `field`) and places it in the principal's namespace. */
export function placeConversation(
  ctx: ServerContext,
  target: TargetRoute,
  raw: unknown,
  field: string,
): ConversationRoute {
  const conversationId = parseWith(conversationIdSchema, raw, field);
  return { ...target, conversationId, sessionId: ctx.sessionIdOf(target.owner, conversationId) };
}

/** The request's `traceparent`, when valid. */
export function traceParentOf(c: Context): TraceParent | undefined {
  return parseTraceParent(c.req.header('traceparent'), c.req.header('tracestate'));
}

/** True when the client asks for SSE. */
export function wantsEventStream(c: Context): boolean {
  return (c.req.header('accept') ?? '').toLowerCase().includes('text/event-stream');
}
