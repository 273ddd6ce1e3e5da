/**
 * A served target as a Hono app: the agent card, the JSON-RPC endpoint (1.0 and 0.3), the HTTP+JSON
 * endpoints. It runs on its own (`serveA2A`) or mounts on another Hono app, such as `@skein/server`:
 * `server.route('/a2a/desk', a2a.app)`; the card then advertises the URLs it was fetched under.
 */
import { Hono } from 'hono';
import { boundedBodies, DEFAULT_BODY_LIMITS } from './bounded-body.js';
import { PATHS } from './card.js';
import { handleJsonRpc } from './jsonrpc-route.js';
import type { A2AServerOptions } from './options.js';
import { handleRest } from './rest-route.js';
import { baseOf, Serving } from './serving.js';

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

/** The card: A2A 1.0 for a request asking for it (`A2A-Version: 1.0`), else (with the compatibility layer) the 0.3 card. */
async function cardResponse(serving: Serving, request: Request): Promise<Response> {
  const card = serving.cardAt(baseOf(request.url, PATHS.card));
  const { sdk } = await serving.start();
  const headers = { Vary: 'A2A-Version' };
  const v1 = sdk.core.AgentCard.toJSON(card) as { supportedInterfaces?: unknown };
  if (!serving.legacy || (request.headers.get('A2A-Version') || '0.3') !== '0.3') return Response.json(v1, { headers });
  // The SDK's 0.3 card translation is reached through its legacy REST handler (its Express router is not used here).
  const shim = { getAuthenticatedExtendedAgentCard: async () => card } as unknown as ConstructorParameters<
    typeof sdk.legacy.LegacyRestTransportHandler
  >[0];
  const legacyCard = await new sdk.legacy.LegacyRestTransportHandler(shim).getAuthenticatedExtendedAgentCard(
    new sdk.server.ServerCallContext(),
  );
  return Response.json({ ...legacyCard, supportedInterfaces: v1.supportedInterfaces }, { headers });
}

/** Builds the A2A app of a target. Nothing is loaded or read until `start()` or the first request. */
export function createA2AApp(options: A2AServerOptions): A2AApp {
  const serving = new Serving(options);
  const app = new Hono();
  app.use('*', boundedBodies({ ...DEFAULT_BODY_LIMITS, ...options.limits }));
  app.get(PATHS.card, (c) => cardResponse(serving, c.req.raw));
  app.post(PATHS.jsonRpc, (c) =>
    serving.serve(c.req.raw, PATHS.jsonRpc, (r, card, ctx, cancel) =>
      handleJsonRpc(c, { sdk: r.sdk, handler: r.handler, legacy: serving.legacy }, card, ctx, cancel),
    ),
  );
  app.all(`${PATHS.rest}/*`, (c) =>
    serving.serve(c.req.raw, PATHS.rest, (r, card, ctx, cancel) => {
      const path = new URL(c.req.url).pathname;
      const sub = path.slice(path.indexOf(PATHS.rest) + PATHS.rest.length);
      return handleRest(c, sub, { sdk: r.sdk, handler: r.handler }, card, ctx, cancel);
    }),
  );
  return {
    app,
    fetch: (request) => Promise.resolve(app.fetch(request)),
    start: async () => (await serving.start()).resumed,
    close: () => serving.close(),
  };
}
