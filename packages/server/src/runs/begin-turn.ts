/**
 * The gate before a turn: the server is not stopping (503), the principal has turns left this minute
 * (429), the process has room for one more run (503), the server's input guardrails pass the message
 * (422, nothing stored), and the conversation is free (409 with what runs, or a wait when the request
 * asked for it). Then the turn is opened; when another server process
 * holds the conversation, a request that asked to wait waits for it there too (wait-elsewhere.ts).
 */
import { notFound, ProblemError } from '../http/problem.js';
import type { ConversationRoute } from '../http/route-context.js';
import type { ServerContext } from '../server-context.js';
import type { TurnPrompt } from '../store/conversation-record.js';
import type { TraceParent } from '../telemetry/trace-parent.js';
import { checkMessage } from './check-message.js';
import { openTurn } from './open-turn.js';
import type { Reservation, RunningTurn } from './run-registry.js';
import { busyElsewhere, waitElsewhere } from './wait-elsewhere.js';

/** Options of {@link beginTurn}. */
export interface BeginOptions {
  /** Wait for a running turn to end instead of answering 409. */
  wait: boolean;
  /** Count against the principal's turns per minute (new messages and answers do; re-joins do not). */
  counted: boolean;
  traceParent: TraceParent | undefined;
  /** The AG-UI `runId` of the turn (see `TurnRequest.runId`). */
  runId?: string;
}

function stoppingProblem(): ProblemError {
  return new ProblemError(
    503,
    'stopping',
    'The server is stopping',
    'This server process is stopping; send the request again (another process, or this one after its restart, takes it).',
    {
      retryAfter: 2,
    },
  );
}

function busyProblem(ctx: ServerContext, route: ConversationRoute): ProblemError {
  const { conversationId } = route;
  const running = ctx.registry.running(route.sessionId);
  return new ProblemError(
    409,
    'turn-running',
    'A turn is running in this conversation',
    `Turn ${running?.turn ?? '(starting)'} of conversation ${conversationId} is running; wait for its turnEnd (GET .../stream), cancel it (POST .../cancel), or send with "wait": true.`,
    {
      field: 'path.id',
      running: running
        ? { turn: running.turn, startedAt: running.startedAt, kind: running.kind, name: running.name }
        : { starting: true },
    },
  );
}

async function reserve(
  ctx: ServerContext,
  route: ConversationRoute,
  wait: boolean,
  deadline: number,
): Promise<Reservation> {
  for (;;) {
    const reservation = ctx.registry.reserve(route.sessionId, route.owner);
    if (reservation) return reservation;
    const left = deadline - Date.now();
    // Who runs it is only told to its owner: another principal learns nothing of the conversation.
    if (ctx.registry.holder(route.sessionId) !== route.owner)
      throw notFound(`Conversation ${route.conversationId}`, 'path.id');
    if (!wait || left <= 0 || !(await ctx.registry.waitFree(route.sessionId, left))) throw busyProblem(ctx, route);
    if (ctx.stopping) throw stoppingProblem();
  }
}

/** Runs the gate and opens the turn (`prompt` undefined: resume a cut turn); `undefined` when there is nothing to resume. */
export async function beginTurn(
  ctx: ServerContext,
  route: ConversationRoute,
  prompt: TurnPrompt | undefined,
  options: BeginOptions,
): Promise<RunningTurn | undefined> {
  if (ctx.stopping) throw stoppingProblem();
  if (options.counted) {
    const waitMs = ctx.rateLimiter.take(route.owner);
    if (waitMs > 0) {
      throw new ProblemError(
        429,
        'too-many-turns',
        'Too many turns',
        `More than ${ctx.limits.turnsPerMinute} turns a minute for this principal; try again in ${Math.ceil(waitMs / 1000)} s.`,
        {
          retryAfter: waitMs / 1000,
          limit: ctx.limits.turnsPerMinute,
        },
      );
    }
  }
  if (ctx.registry.runningCount >= ctx.limits.maxConcurrentRuns) {
    throw new ProblemError(
      503,
      'at-capacity',
      'The server runs as many turns as it may',
      `This process runs ${ctx.limits.maxConcurrentRuns} turns already (limits.maxConcurrentRuns); try again shortly.`,
      {
        retryAfter: 1,
      },
    );
  }
  // The server's input guardrails before anything of the message is stored.
  const checked = await checkMessage(ctx, route, prompt);
  // Waiting: for a turn of this process (the registry tells when it ends), or of another process (the store does).
  const deadline = Date.now() + ctx.limits.waitMs;
  for (let attempt = 0; ; attempt++) {
    const reservation = await reserve(ctx, route, options.wait, deadline);
    try {
      return await openTurn(
        ctx,
        {
          kind: route.kind,
          name: route.name,
          conversationId: route.conversationId,
          sessionId: route.sessionId,
          door: route.action,
          principal: route.principal,
          owner: route.owner,
          prompt: checked,
          traceParent: options.traceParent,
          runId: options.runId,
        },
        reservation,
      );
    } catch (error) {
      if (!options.wait || !busyElsewhere(error) || Date.now() >= deadline) throw error;
    }
    await waitElsewhere(ctx, route.sessionId, deadline - Date.now(), attempt);
    if (ctx.stopping) throw stoppingProblem();
  }
}
