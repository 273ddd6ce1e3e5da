/**
 * What every `/v1/{kind}/{name}/...` route checks first, in this order: who asks (401/403), that the
 * kind and name exist (404 naming `path.kind` / `path.name`), and that the conversation id is safe
 * (400 naming `path.id`). Nothing is read or written before these pass.
 */
import type { Context } from 'hono';
import { authorizeRequest, type Authorized } from '../auth/authorize.js';
import type { TargetKind } from '../options.js';
import type { ServerContext } from '../server-context.js';
import { parseTraceParent, type TraceParent } from '../telemetry/trace-parent.js';
import { notFound } from './problem.js';
import { conversationIdSchema } from './schemas.js';
import { parseWith } from './validate.js';

const KINDS: readonly string[] = ['agents', 'graphs', 'swarms'];

/** A checked target route. */
export interface TargetRoute extends Authorized {
  kind: TargetKind;
  name: string;
}

/** A checked conversation route. */
export interface ConversationRoute extends TargetRoute {
  conversationId: string;
}

/** Checks principal, kind and name. */
export async function targetRoute(ctx: ServerContext, c: Context): Promise<TargetRoute> {
  const authorized = await authorizeRequest(ctx.options, c.req.raw);
  const kind = c.req.param('kind') ?? '';
  if (!KINDS.includes(kind))
    throw notFound(`Kind ${JSON.stringify(kind.slice(0, 40))} (use agents, graphs or swarms)`, 'path.kind');
  const name = c.req.param('name') ?? '';
  if (!ctx.factory(kind as TargetKind, name))
    throw notFound(`${kind}/${JSON.stringify(name.slice(0, 80))}`, 'path.name');
  return { ...authorized, kind: kind as TargetKind, name };
}

/** Checks principal, kind, name and conversation id. */
export async function conversationRoute(ctx: ServerContext, c: Context): Promise<ConversationRoute> {
  const target = await targetRoute(ctx, c);
  const conversationId = parseWith(conversationIdSchema, c.req.param('id'), 'path.id');
  return { ...target, conversationId };
}

/** The request's `traceparent`, when valid. */
export function traceParentOf(c: Context): TraceParent | undefined {
  return parseTraceParent(c.req.header('traceparent'), c.req.header('tracestate'));
}

/** True when the client asks for SSE. */
export function wantsEventStream(c: Context): boolean {
  return (c.req.header('accept') ?? '').toLowerCase().includes('text/event-stream');
}
