/**
 * Conversations: `GET` one (messages, transitions, turns, status), `DELETE` one, `GET` the list of
 * the principal's conversations with a name, `GET .../pending` (what waits for an answer), and
 * `POST .../cancel` (stop the running turn).
 */
import type { Context } from 'hono';
import { SessionConflictError } from '@skein/core';
import { notFound, ProblemError } from '../http/problem.js';
import { conversationRoute, targetRoute } from '../http/route-context.js';
import { listQuerySchema } from '../http/schemas.js';
import { parseWith } from '../http/validate.js';
import { toProblem } from '../runs/errors-to-problems.js';
import { publicInterrupts } from '../runs/interrupt-ids.js';
import { pendingOf } from '../runs/target.js';
import type { ServerContext } from '../server-context.js';
import { writeRecord } from '../store/conversation-record.js';
import { readIndex, writeIndexEntry } from '../store/principal-index.js';
import { conversationView, openRead, targetFor } from '../store/read-conversation.js';

export async function getConversation(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await conversationRoute(ctx, c, 'read');
  const read = await openRead(ctx, route);
  try {
    return c.json(await conversationView(ctx, route, read));
  } finally {
    await read.close();
  }
}

export async function getPending(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await conversationRoute(ctx, c, 'pending');
  const read = await openRead(ctx, route);
  try {
    const current = read.record.current;
    const waiting = !ctx.registry.busy(route.sessionId) && current?.status === 'interrupted';
    const interrupts = waiting ? publicInterrupts(await pendingOf(await targetFor(ctx, route, read)), current) : [];
    return c.json({ conversationId: route.conversationId, interrupts });
  } finally {
    await read.close();
  }
}

export async function deleteConversation(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await conversationRoute(ctx, c, 'delete');
  const id = route.sessionId;
  const shown = route.conversationId;
  const holder = ctx.registry.holder(id);
  if (holder !== undefined && holder !== route.owner) throw notFound(`Conversation ${shown}`, 'path.id');
  if (holder !== undefined) {
    throw new ProblemError(
      409,
      'turn-running',
      'A turn is running in this conversation',
      `Cancel the running turn of ${shown} first (POST .../cancel), then delete it.`,
      { field: 'path.id' },
    );
  }
  const reservation = ctx.registry.reserve(id, route.owner);
  if (!reservation)
    throw new ProblemError(
      409,
      'turn-running',
      'A turn is running in this conversation',
      `A turn of ${shown} started; cancel it first.`,
      { field: 'path.id' },
    );
  const read = await openRead(ctx, route).catch((error: unknown) => {
    reservation.release();
    throw error;
  });
  try {
    await read.repo.beginView?.(id);
    // Claims the session first (rewriting the record as it is): a turn running in another process wins.
    await writeRecord(read.repo, id, read.record, true);
    await read.repo.deleteSession(id);
    await writeIndexEntry(ctx.options.sessions, route.owner, {
      id: shown,
      kind: read.record.kind,
      name: read.record.name,
      createdAt: read.record.createdAt,
      title: read.record.title,
      deleted: true,
    });
    ctx.registry.forget(id);
    return c.body(null, 204);
  } catch (error) {
    throw SessionConflictError.is(error) ? toProblem(error, shown) : error;
  } finally {
    await read.close();
    reservation.release();
  }
}

function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  return Buffer.from(cursor, 'base64url').toString('utf8');
}

export async function listConversations(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await targetRoute(ctx, c, 'list');
  const query = parseWith(listQuerySchema, { limit: c.req.query('limit'), cursor: c.req.query('cursor') }, 'query');
  const limit = query.limit ?? 50;
  const after = decodeCursor(query.cursor);
  const all = (await readIndex(ctx.options.sessions, route.owner)).filter(
    (e) => e.kind === route.kind && e.name === route.name,
  );
  const start = after === undefined ? 0 : all.findIndex((e) => `${e.createdAt}|${e.id}` === after) + 1;
  const page = all.slice(start, start + limit);
  const last = page[page.length - 1];
  const more = start + limit < all.length && last !== undefined;
  return c.json({
    conversations: page.map((e) => ({ id: e.id, createdAt: e.createdAt, title: e.title })),
    ...(more ? { next: Buffer.from(`${last.createdAt}|${last.id}`).toString('base64url') } : {}),
  });
}

export async function postCancel(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await conversationRoute(ctx, c, 'cancel');
  const running = ctx.registry.running(route.sessionId);
  if (!running) {
    const read = await openRead(ctx, route);
    await read.close();
    const elsewhere = read.record.current?.status === 'running';
    throw new ProblemError(
      409,
      'nothing-running',
      'No turn is running here',
      elsewhere
        ? `Turn ${read.record.current?.seq} of ${route.conversationId} is not running in this process; send the cancel to the process that runs it (route by conversation id), or re-join to resume a cut turn.`
        : `No turn of ${route.conversationId} is running.`,
      { field: 'path.id' },
    );
  }
  if (running.owner !== route.owner) throw notFound(`Conversation ${route.conversationId}`, 'path.id');
  running.abort('cancel');
  return c.json({ conversationId: route.conversationId, turn: running.turn, cancelled: true }, 202);
}
