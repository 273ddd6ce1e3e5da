/**
 * `GET /v1/{kind}/{name}/conversations/{id}/stream`: re-joins the conversation's current turn. With
 * `Last-Event-ID` (or `?lastEventId=`) the client gets the events after that one, then the live ones;
 * without, the whole turn. A turn cut when its process stopped (crash, SIGKILL, SIGTERM) is resumed
 * from the store and streamed. Nothing running and nothing to resume: 204. `?format=ui` streams the
 * AI SDK UI message stream instead (always the whole turn: the AI SDK replays a resumed stream).
 */
import type { Context } from 'hono';
import { badRequest, notFound, ProblemError } from '../http/problem.js';
import { conversationRoute, traceParentOf } from '../http/route-context.js';
import { beginTurn } from '../runs/begin-turn.js';
import type { EventLog } from '../runs/event-log.js';
import { checkRunAccess } from '../runs/open-turn.js';
import type { ServerContext } from '../server-context.js';
import type { ServerEvent } from '../stream/server-events.js';
import { sseResponse } from '../stream/sse-response.js';
import { parseEventId } from '../stream/sse.js';

type EventIdParts = NonNullable<ReturnType<typeof parseEventId>>;

/** Where a client that last saw `last` starts in `log`, and what it is told first. */
function startIn(log: EventLog, last: EventIdParts | undefined): { from: number; prelude: ServerEvent[] } {
  if (!last) return { from: 0, prelude: [] };
  if (last.turn === log.turn && last.attempt === log.attempt) {
    const from = last.seq + 1;
    if (from >= log.firstSeq) return { from, prelude: [] };
    const detail = `Events ${from} to ${log.firstSeq - 1} of turn ${log.turn} are no longer kept (limits.maxEventsPerTurn); the stream goes on from event ${log.firstSeq}.`;
    return { from, prelude: [{ type: 'gap', detail }] };
  }
  if (last.turn === log.turn && last.attempt < log.attempt) {
    const detail = `Turn ${log.turn} was resumed from the store after its server process stopped; events after ${last.turn}.${last.attempt}.${last.seq} were not kept. This is everything since the resume (a node or model call that was running runs again).`;
    return { from: 0, prelude: [{ type: 'resumed', turn: log.turn, attempt: log.attempt, detail }] };
  }
  const detail = `The last event you saw belongs to another turn; this is turn ${log.turn} from its start.`;
  return { from: 0, prelude: [{ type: 'gap', detail }] };
}

function readFormat(c: Context): 'server' | 'ui' {
  const format = c.req.query('format');
  if (format === undefined || format === 'server') return 'server';
  if (format === 'ui') return 'ui';
  throw badRequest('query.format', `is ${JSON.stringify(format.slice(0, 40))}; use server (default) or ui.`);
}

function stream(
  ctx: ServerContext,
  c: Context,
  log: EventLog,
  format: 'server' | 'ui',
  last: EventIdParts | undefined,
): Response {
  const { from, prelude } = format === 'ui' ? { from: 0, prelude: [] } : startIn(log, last);
  return sseResponse(c, log, { from, prelude, format, heartbeatMs: ctx.limits.heartbeatMs });
}

export async function getStream(ctx: ServerContext, c: Context): Promise<Response> {
  const route = await conversationRoute(ctx, c, 'stream');
  const format = readFormat(c);
  const last = parseEventId(c.req.header('last-event-id') ?? c.req.query('lastEventId'));
  const id = route.sessionId;
  const running = ctx.registry.running(id);
  if (running) {
    checkRunAccess(running, route);
    return stream(ctx, c, running.log, format, last);
  }
  const finished = ctx.registry.finished(id);
  if (finished && last && last.turn === finished.log.turn && last.attempt === finished.log.attempt) {
    checkRunAccess(finished, route);
    if (last.seq + 1 < finished.log.size) return stream(ctx, c, finished.log, format, last);
    return c.body(null, 204);
  }
  const holder = ctx.registry.holder(id);
  if (holder !== undefined && holder !== route.owner) throw notFound(`Conversation ${route.conversationId}`, 'path.id');
  if (holder !== undefined) {
    throw new ProblemError(
      409,
      'turn-starting',
      'A turn is starting',
      `A turn of conversation ${route.conversationId} is starting; re-join in a moment.`,
      {
        field: 'path.id',
        retryAfter: 1,
      },
    );
  }
  const resumed = await beginTurn(ctx, route, undefined, {
    wait: false,
    counted: false,
    traceParent: traceParentOf(c),
  });
  if (!resumed) return c.body(null, 204);
  return stream(ctx, c, resumed.log, format, last);
}
