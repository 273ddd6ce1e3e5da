/**
 * `POST /v1/{kind}/{name}/agui`: the AG-UI protocol (`RunAgentInput` in, AG-UI events out as SSE), for
 * `@ag-ui/client`'s `HttpAgent` and the front ends built on it (CopilotKit). The same turn and events
 * as `.../messages`, mapped to AG-UI events. The body's `threadId` is the conversation (in the
 * principal's namespace, as the path's id is elsewhere), its `runId` names the turn: a request naming
 * the run that runs (or just ran, or was cut by a restart) re-joins it instead of starting another.
 */
import type { Context } from 'hono';
import type { AguiRun } from '../agui/agui-speakers.js';
import { parseRunAgentInput, promptOfRunInput } from '../agui/agui-input.js';
import { ProblemError } from '../http/problem.js';
import { placeConversation, targetRouteFor, traceParentOf, type ConversationRoute } from '../http/route-context.js';
import { readJsonBody } from '../http/validate.js';
import { beginTurn } from '../runs/begin-turn.js';
import type { EventLog } from '../runs/event-log.js';
import { checkRunAccess } from '../runs/open-turn.js';
import type { ServerContext } from '../server-context.js';
import { sseResponse } from '../stream/sse-response.js';
import { turnHeaders } from './respond.js';

function threadIdOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const id = (body as { threadId?: unknown }).threadId;
  return typeof id === 'string' ? id : undefined;
}

/** The log of run `runId` when it runs in this process, or finished here a moment ago. */
function rejoin(ctx: ServerContext, route: ConversationRoute, runId: string): EventLog | undefined {
  const running = ctx.registry.running(route.sessionId);
  if (running?.runId === runId) {
    checkRunAccess(running, route);
    return running.log;
  }
  const finished = ctx.registry.finished(route.sessionId);
  if (!running && finished?.runId === runId) {
    checkRunAccess(finished, route);
    return finished.log;
  }
  return undefined;
}

export async function postAgui(ctx: ServerContext, c: Context): Promise<Response> {
  // The body is read (bounded) before `authorize`, which decides on the thread it names; what is wrong
  // with the body is answered after `authorize` (401/403 before any 400).
  const read = await readJsonBody(c.req.raw, ctx.limits).then(
    (body): { body: unknown } => ({ body }),
    (error: unknown): { error: unknown } => ({ error }),
  );
  const target = await targetRouteFor(ctx, c, 'agui', 'body' in read ? threadIdOf(read.body) : undefined);
  if ('error' in read) throw read.error;
  const input = parseRunAgentInput(read.body);
  const route = placeConversation(ctx, target, input.threadId, 'body.threadId');
  const run: AguiRun = { threadId: input.threadId, runId: input.runId };
  const stream = (log: EventLog, headers: Record<string, string> = {}): Response =>
    sseResponse(c, log, { from: 0, format: 'agui', agui: run, heartbeatMs: ctx.limits.heartbeatMs, headers });
  const again = rejoin(ctx, route, input.runId);
  if (again) return stream(again);
  const { prompt, chars, field } = promptOfRunInput(input);
  if (chars > ctx.limits.maxMessageChars) {
    throw new ProblemError(
      413,
      'message-too-large',
      'Message too large',
      `The last message holds ${chars} characters; send at most ${ctx.limits.maxMessageChars} (limits.maxMessageChars).`,
      { field },
    );
  }
  const turn = await beginTurn(ctx, route, prompt, {
    wait: false,
    counted: true,
    traceParent: traceParentOf(c),
    runId: input.runId,
  }).catch((error: unknown) => {
    // Answers come as `resume` entries here: the problem names the field this request sent.
    if (error instanceof ProblemError && error.problem.field === 'body.answers') error.problem.field = 'body.resume';
    throw error;
  });
  if (!turn) throw new Error('unreachable: an AG-UI run always opens a turn');
  return stream(turn.log, turnHeaders(turn));
}
