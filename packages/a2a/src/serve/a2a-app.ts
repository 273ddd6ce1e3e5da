/**
 * A served target as a Hono app: the agent card, the JSON-RPC endpoint (1.0 and 0.3), the HTTP+JSON
 * endpoints. It runs on its own (`serveA2A`) or mounts on another Hono app, such as `@skein/server`:
 * `server.route('/a2a/desk', a2a.app)`; the card then advertises the URLs it was fetched under.
 */
import type { AgentCard } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { InMemorySessionRepository, RepositorySessionManager, type SessionManager } from '@skein/core';
import { Hono } from 'hono';
import { serverSdk, type ServerSdk } from '../wire/sdk.js';
import { isTraceparent, loadTraceApi } from '../wire/trace-context.js';
import { buildCard, PATHS } from './card.js';
import { handleJsonRpc } from './jsonrpc-route.js';
import { type A2AServerOptions, type A2ATarget, principalId } from './options.js';
import { SIGNAL_STATE, SkeinRequestHandler, TRACEPARENT_STATE } from './request-handler.js';
import { handleRest } from './rest-route.js';
import { TaskDocs, TaskIndex } from './task-store.js';
import { TaskRunner } from './task-runner.js';

/** A served target: mount `app`, or call `fetch`. */
export interface A2AApp {
  /** The Hono app (routes `/.well-known/agent-card.json`, `/a2a/jsonrpc`, `/a2a/rest/*`). */
  readonly app: Hono;
  /** Answers one request (the app's fetch). */
  fetch(request: Request): Promise<Response>;
  /** Loads the task index and resumes the tasks a restart cut; requests wait for it. Idempotent. Resolves with how many resumed. */
  start(): Promise<number>;
  /** Waits for the runs in progress to end, then releases the index session. */
  close(): Promise<void>;
}

interface Ready {
  sdk: ServerSdk;
  handler: SkeinRequestHandler;
  runner: TaskRunner;
  index: TaskIndex;
  resumed: number;
}

function memorySessions(): (id: string) => SessionManager {
  const repository = new InMemorySessionRepository();
  return (sessionId) => new RepositorySessionManager({ sessionId, repository });
}

/** Builds the A2A app of a target. Nothing is loaded or read until `start()` or the first request. */
export function createA2AApp(options: A2AServerOptions): A2AApp {
  const sessions = options.sessions ?? memorySessions();
  const legacy = options.legacyCompat !== false;
  const cardOptions = options.card ?? {};
  let cardTarget: A2ATarget | undefined;
  const cardAt = (base: string): AgentCard => {
    cardTarget ??= options.agent(
      new RepositorySessionManager({ sessionId: 'a2a-card', repository: new InMemorySessionRepository() }),
    );
    return buildCard(cardTarget, base, cardOptions, legacy);
  };
  let lastBase = cardOptions.url ?? 'http://localhost';
  let ready: Promise<Ready> | undefined;
  const start = (): Promise<Ready> => {
    ready ??= (async () => {
      const [sdk] = await Promise.all([serverSdk(), loadTraceApi()]);
      const index = new TaskIndex(sessions(options.indexSessionId ?? 'a2a-tasks'));
      await index.load();
      const docs = new TaskDocs(sessions);
      const runner = new TaskRunner({ build: options.agent, docs, index, sdk });
      const handler = new SkeinRequestHandler({ card: () => cardAt(lastBase), runner, index, docs, sdk });
      const resumed = await runner.resumeAll();
      return { sdk, handler, runner, index, resumed };
    })();
    ready.catch(() => {
      ready = undefined;
    });
    return ready;
  };

  const contextFor = async (request: Request, r: Ready, signal: AbortSignal): Promise<ServerCallContext | Response> => {
    const principal = options.authorize ? await options.authorize(request) : 'anonymous';
    if (principal === undefined)
      return Response.json({ error: 'Unauthorized: this agent does not know the caller.' }, { status: 401 });
    const tp = request.headers.get('traceparent');
    const state = new Map<string, unknown>([
      ['headers', Object.fromEntries(request.headers)],
      [SIGNAL_STATE, signal],
    ]);
    if (isTraceparent(tp)) state.set(TRACEPARENT_STATE, tp);
    const version = request.headers.get('A2A-Version');
    return new r.sdk.server.ServerCallContext({
      user: { isAuthenticated: options.authorize !== undefined, userName: principalId(principal) },
      ...(version ? { requestedVersion: version } : {}),
      state,
    });
  };

  const baseOf = (url: string, marker: string): string => {
    const u = new URL(url);
    const at = u.pathname.indexOf(marker);
    return `${u.origin}${at >= 0 ? u.pathname.slice(0, at) : ''}`;
  };

  const app = new Hono();
  app.get(PATHS.card, async (c) => {
    const base = baseOf(c.req.url, PATHS.card);
    lastBase = cardOptions.url ?? base;
    const card = cardAt(base);
    const version = c.req.header('A2A-Version') || '0.3';
    if (legacy && version === '0.3') {
      // The SDK's 0.3 card translation is reached through its legacy REST handler (the Express router is not used here).
      const { sdk } = await start();
      const shim = { getAuthenticatedExtendedAgentCard: async () => card } as unknown as ConstructorParameters<
        typeof sdk.legacy.LegacyRestTransportHandler
      >[0];
      const ctx = new sdk.server.ServerCallContext();
      const legacyCard = await new sdk.legacy.LegacyRestTransportHandler(shim).getAuthenticatedExtendedAgentCard(ctx);
      const v1 = sdk.core.AgentCard.toJSON(card) as { supportedInterfaces?: unknown };
      return c.json({ ...legacyCard, supportedInterfaces: v1.supportedInterfaces }, 200, { Vary: 'A2A-Version' });
    }
    const { sdk } = await start();
    return c.json(sdk.core.AgentCard.toJSON(card), 200, { Vary: 'A2A-Version' });
  });
  const serve = async (
    request: Request,
    marker: string,
    run: (r: Ready, card: AgentCard, ctx: ServerCallContext, cancel: () => void) => Promise<Response>,
  ): Promise<Response> => {
    const r = await start();
    const base = baseOf(request.url, marker);
    lastBase = cardOptions.url ?? base;
    const abort = new AbortController();
    const ctx = await contextFor(request, r, abort.signal);
    if (ctx instanceof Response) return ctx;
    return run(r, cardAt(base), ctx, () => abort.abort());
  };
  app.post(PATHS.jsonRpc, (c) =>
    serve(c.req.raw, PATHS.jsonRpc, (r, card, ctx, cancel) =>
      handleJsonRpc(c.req.raw, { sdk: r.sdk, handler: r.handler, legacy }, card, ctx, cancel),
    ),
  );
  app.all(`${PATHS.rest}/*`, (c) =>
    serve(c.req.raw, PATHS.rest, (r, card, ctx, cancel) => {
      const path = new URL(c.req.url).pathname;
      const sub = path.slice(path.indexOf(PATHS.rest) + PATHS.rest.length);
      return handleRest(c.req.raw, sub, { sdk: r.sdk, handler: r.handler }, card, ctx, cancel);
    }),
  );

  return {
    app,
    fetch: (request) => Promise.resolve(app.fetch(request)),
    start: async () => (await start()).resumed,
    close: async () => {
      if (!ready) return;
      const r = await ready;
      await r.runner.settle();
      await r.index.close();
    },
  };
}
