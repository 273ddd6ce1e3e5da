/**
 * Time travel over a graph's or swarm's conversation, through the orchestrator's own `history()`,
 * `stateAt()` and `fork()`: `GET .../history` (every kept step), `GET .../history/{step}` (the run as
 * it stood then) and `POST .../fork` (a new conversation of the same principal that goes on from a
 * step, with edits; send it a message to run it). The source conversation is only read, and only its
 * owner reaches it (another principal's id is a 404, as everywhere).
 */
import type { Context } from 'hono';
import {
  ConfigurationError,
  SessionConflictError,
  SessionNotFoundError,
  nowIso,
  type JsonObject,
  type JsonValue,
  type SessionManager,
} from '@skein/core';
import { ProblemError } from '../http/problem.js';
import { conversationRoute, placeConversation, type ConversationRoute } from '../http/route-context.js';
import { forkBodySchema, stepSchema } from '../http/time-travel-schemas.js';
import { parseWith, readJsonBody } from '../http/validate.js';
import type { Target } from '../runs/target.js';
import type { ServerContext } from '../server-context.js';
import { readRecord, writeRecord } from '../store/conversation-record.js';
import { writeIndexEntry } from '../store/principal-index.js';
import { closeQuietly, ensureSession, repositoryOf } from '../store/repository-of.js';
import { openRead, targetFor, type ConversationRead } from '../store/read-conversation.js';

/** What Graph and Swarm offer for time travel (both have it; another orchestrator may not). */
interface TimeTravel {
  history(): Promise<unknown[]>;
  stateAt(step: number): Promise<unknown>;
  fork(options: {
    step: number;
    to: string;
    edit?: JsonObject;
  }): Promise<{ step: number; forkedFrom: { edits: string[] } }>;
}

/** The target's time travel, or a 400 saying that only graphs and swarms have steps. */
function timeTravelOf(target: Target, route: ConversationRoute): TimeTravel {
  const multi = target.kind === 'multi' ? (target.multi as unknown as Partial<TimeTravel>) : undefined;
  if (multi?.history && multi.stateAt && multi.fork) return multi as TimeTravel;
  throw new ProblemError(
    400,
    'no-history',
    'This target keeps no steps',
    `${route.kind}/${route.name} has no step history; history, state and fork are for graphs and swarms (an agent's conversation is read with GET .../conversations/{id}).`,
    { field: 'path.kind' },
  );
}

/** Steps as the client sees them: a fork's origin without the store's session id (the principal's namespace stays inside). */
function publicSteps(steps: unknown[]): JsonValue {
  return steps.map((s) => {
    const { forkedFrom, ...rest } = s as { forkedFrom?: { sessionId?: string } } & Record<string, unknown>;
    if (!forkedFrom) return rest;
    const { sessionId: _internal, ...origin } = forkedFrom;
    return { ...rest, forkedFrom: origin };
  }) as JsonValue;
}

/** A step that is not kept, as a 404 naming `field`; other errors as they are. */
function stepProblem(error: unknown, field: string): unknown {
  if (SessionNotFoundError.is(error))
    return new ProblemError(404, 'step-not-kept', 'No such step', `${(error as Error).message}`, { field });
  return error;
}

/** Runs `use` with the conversation's time travel (the conversation is read, never written). */
async function withTimeTravel<T>(
  ctx: ServerContext,
  c: Context,
  action: 'history' | 'fork',
  use: (travel: TimeTravel, route: ConversationRoute, read: ConversationRead) => Promise<T>,
): Promise<T> {
  const route = await conversationRoute(ctx, c, action);
  const read = await openRead(ctx, route);
  try {
    return await use(timeTravelOf(await targetFor(ctx, route, read), route), route, read);
  } finally {
    await read.close();
  }
}

export function getHistory(ctx: ServerContext, c: Context): Promise<Response> {
  return withTimeTravel(ctx, c, 'history', async (travel, route) =>
    c.json({ conversationId: route.conversationId, steps: publicSteps(await travel.history()) }),
  );
}

export function getStepState(ctx: ServerContext, c: Context): Promise<Response> {
  return withTimeTravel(ctx, c, 'history', async (travel, route) => {
    const step = parseWith(stepSchema, c.req.param('step'), 'path.step');
    const state = await travel.stateAt(step).catch((error: unknown) => Promise.reject(stepProblem(error, 'path.step')));
    const [shown] = publicSteps([state]) as JsonValue[];
    return c.json({ conversationId: route.conversationId, state: shown ?? null });
  });
}

export function postFork(ctx: ServerContext, c: Context): Promise<Response> {
  return withTimeTravel(ctx, c, 'fork', async (travel, route, read) => {
    const body = parseWith(forkBodySchema, await readJsonBody(c.req.raw, ctx.limits), 'body');
    const to = placeConversation(ctx, route, body.to, 'body.to');
    const reservation = ctx.registry.reserve(to.sessionId, route.owner);
    const taken = (): ProblemError =>
      new ProblemError(
        409,
        'conversation-exists',
        'The new conversation exists',
        `Conversation ${to.conversationId} exists already; fork into a new id.`,
        { field: 'body.to' },
      );
    if (!reservation) throw taken();
    let manager: SessionManager | undefined;
    try {
      if (await readRecord(read.repo, to.sessionId)) throw taken();
      const fork = await travel
        .fork({ step: body.step, to: to.sessionId, ...(body.edit ? { edit: body.edit as JsonObject } : {}) })
        .catch((error: unknown) => Promise.reject(forkProblem(error, to.conversationId)));
      manager = ctx.options.sessions(to.sessionId);
      const repo = repositoryOf(manager);
      const createdAt = nowIso();
      const title = `fork of ${route.conversationId} at step ${fork.step}`;
      await writeIndexEntry(ctx.options.sessions, route.owner, {
        id: to.conversationId,
        kind: route.kind,
        name: route.name,
        createdAt,
        title,
      });
      await ensureSession(repo, to.sessionId, 'MULTI_AGENT', manager);
      await writeRecord(
        repo,
        to.sessionId,
        { v: 1, kind: route.kind, name: route.name, owner: route.owner, createdAt, title },
        false,
      );
      return c.json(
        {
          conversationId: to.conversationId,
          forkedFrom: { conversationId: route.conversationId, step: fork.step },
          changes: fork.forkedFrom.edits,
        },
        201,
      );
    } finally {
      if (manager) await closeQuietly(manager);
      reservation.release();
    }
  });
}

/** A fork's errors as problems: a bad edit (400 `body.edit`), a step not kept (404 `body.step`), a taken id (409 `body.to`). */
function forkProblem(error: unknown, to: string): unknown {
  if (error instanceof ConfigurationError)
    return new ProblemError(400, 'invalid-edit', 'The edit does not fit', error.message, { field: 'body.edit' });
  if (SessionConflictError.is(error))
    return new ProblemError(
      409,
      'conversation-exists',
      'The new conversation exists',
      `Conversation ${to} exists already; fork into a new id.`,
      {
        field: 'body.to',
      },
    );
  return stepProblem(error, 'body.step');
}
