import { principalId, type Principal } from '@skein/core';
import { Hono } from 'hono';
import { checkOptions } from './check-options.js';
import { openApiRoute } from './http/openapi.js';
import { internalProblem, ProblemError, problemResponse } from './http/problem.js';
import { tooLarge } from './http/validate.js';
import { RateLimiter } from './limits/rate-limiter.js';
import type { ServerOptions } from './options.js';
import { ROUTES } from './routes/route-table.js';
import { RunRegistry } from './runs/run-registry.js';
import type { ServerContext } from './server-context.js';
import { conversationSessionId } from './store/session-ids.js';
import { stopServer, type StopOptions } from './stop.js';

/** What `createServer` adds to the Hono app: stopping it gracefully, and what runs. */
export interface ServerControl {
  /** Stops taking turns, tells attached streams, lets running turns end (up to `graceMs`), then stops the rest at their next commit point. */
  stop(options?: StopOptions): Promise<void>;
  /** Turns running in this process. */
  readonly runningTurns: number;
  /** True when `authorize` was given (else `serve` binds 127.0.0.1 only). */
  readonly authorized: boolean;
  /**
   * The session id (in the store) of `principal`'s conversation `conversationId`: with `authorize`,
   * conversation ids live in a namespace per principal (see the README).
   */
  sessionIdOf(principal: Principal, conversationId: string): string;
}

/** The Hono app `createServer` returns, with `skein` to stop it. */
export type SkeinServer = Hono & { readonly skein: ServerControl };

/**
 * Puts agents, graphs and swarms behind HTTP: a Hono app (`app.fetch`) with the routes under
 * `/v1/{agents|graphs|swarms}/{name}/conversations/{id}/...` and `GET /openapi.json`. Run it on Node
 * with `serve(app)`, or on any fetch-based runtime with `app.fetch`.
 * @example
 * const app = createServer({
 *   agents: { support: ({ sessionManager }) => new Agent({ model, sessionManager }) },
 *   sessions: (id) => new FileSessionManager({ sessionId: id, storageDir: './sessions' }),
 * });
 * serve(app, { port: 8787 });
 */
export function createServer(options: ServerOptions): SkeinServer {
  const { factories, limits } = checkOptions(options);
  const report =
    options.onError ?? ((error: unknown, where: string) => console.error(`[skein server] ${where}:`, error));
  const ctx: ServerContext = {
    options,
    limits,
    registry: new RunRegistry(limits.replayRetentionMs),
    rateLimiter: new RateLimiter(limits.turnsPerMinute),
    factory: (kind, name) => factories[kind].get(name),
    sessionIdOf: (owner, conversationId) =>
      conversationSessionId(options.authorize !== undefined, owner, conversationId),
    stopping: false,
    report,
  };
  const app = new Hono();
  // Every body is bounded before anything reads it, also on the routes that take none.
  app.use('/v1/*', async (c, next) => {
    if (Number(c.req.header('content-length')) > limits.maxBodyBytes) throw tooLarge(limits.maxBodyBytes);
    await next();
  });
  for (const route of ROUTES) app.on(route.method, route.path, (c) => route.handle(ctx, c));
  app.get('/openapi.json', openApiRoute(ROUTES));
  app.notFound((c) =>
    problemResponse(
      new ProblemError(
        404,
        'no-route',
        'No such route',
        `${c.req.method} ${c.req.path.slice(0, 200)} is not a route of this server; GET /openapi.json lists them.`,
        { field: 'path' },
      ).problem,
      c.req.path.slice(0, 200),
    ),
  );
  app.onError((error, c) => {
    const instance = c.req.path.slice(0, 200);
    if (error instanceof ProblemError) return problemResponse(error.problem, instance);
    report(error, `${c.req.method} ${instance}`);
    return problemResponse(internalProblem(), instance);
  });
  const control: ServerControl = {
    stop: (stopOptions) => stopServer(ctx, stopOptions),
    get runningTurns() {
      return ctx.registry.runningCount;
    },
    authorized: options.authorize !== undefined,
    sessionIdOf: (principal, conversationId) => ctx.sessionIdOf(principalId(principal), conversationId),
  };
  return Object.assign(app, { skein: control });
}
