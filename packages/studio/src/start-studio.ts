/**
 * `startStudio`: serves a module's agents, graphs and swarms on `@skein/server` (127.0.0.1 only, the
 * store the options name), and the studio page beside the server's routes. The page talks to the
 * server's public routes only; the studio adds its page, its script, `GET /studio/targets` (what
 * the module declares, and each graph's shape) and `GET /studio/inspect/{conversationId}` (the
 * inspector's page for a conversation). The module's eval set, when it has one, is run by the
 * server's `POST /v1/{kind}/{name}/evals` (runs kept in the same store).
 */
import { createServer, serve } from '@skein/server';
import { loadEvalSet } from './load-eval-set.js';
import { loadTargets, type StudioTargets } from './load-targets.js';
import { DEFAULT_STORE, openSessions, type StudioStore } from './open-sessions.js';
import { STUDIO_CSP, STUDIO_HTML, buildAssets } from './page-assets.js';
import { inspectRoute } from './inspect-route.js';
import { describeTargets } from './target-shapes.js';

/** Options of {@link startStudio}. */
export interface StudioOptions {
  /** A module path (exporting `{ agents, graphs, swarms }`, see the README), or the targets themselves. */
  module: string | StudioTargets;
  /** Port on 127.0.0.1; default 0 (a free one). */
  port?: number;
  /** Where conversations are stored; default `sqlite:.skein/studio.db` (relative to `cwd`). */
  store?: StudioStore;
  /** What relative paths are relative to; default `process.cwd()`. */
  cwd?: string;
  /** Receives the server's lines (listening, stopping); default none. */
  log?: (line: string) => void;
  /** Stop on SIGTERM/SIGINT and exit (what `skein studio` does); default false. */
  handleSignals?: boolean;
}

/** A running studio. */
export interface RunningStudio {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Where conversations are stored. */
  readonly store: string;
  /** Stops the server (running turns end at their next commit point) and closes the listener. */
  close(): Promise<void>;
}

/** Starts the studio (see the module comment); resolves once it listens. */
export async function startStudio(options: StudioOptions): Promise<RunningStudio> {
  const cwd = options.cwd ?? process.cwd();
  const targets = typeof options.module === 'string' ? await loadTargets(options.module, cwd) : options.module;
  const { sessions, where, inspect } = await openSessions(options.store ?? DEFAULT_STORE, cwd);
  const inspector = inspectRoute(inspect);
  const [infos, assets] = await Promise.all([describeTargets(targets), buildAssets()]);
  const { evals, ...served } = targets;
  const evalSet = typeof evals === 'string' ? await loadEvalSet(evals, cwd) : evals;
  const app = createServer({ ...served, sessions, ...(evalSet ? { evals: () => evalSet } : {}) });
  const page = (): Response =>
    new Response(STUDIO_HTML, {
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': STUDIO_CSP },
    });
  app.get('/', page);
  app.get('/studio/targets', (c) => c.json({ targets: infos }));
  app.get('/studio/inspect/:conversationId', (c) => inspector.handle(c.req.param('conversationId')));
  app.get('/studio/:file', (c) => {
    const asset = assets.get(c.req.path);
    if (!asset) return c.notFound();
    return new Response(asset.body, { headers: { 'content-type': asset.type, 'cache-control': 'no-store' } });
  });
  const running = await serve(app, {
    port: options.port ?? 0,
    hostname: '127.0.0.1',
    log: options.log === undefined ? null : options.log,
    handleSignals: options.handleSignals ?? false,
  });
  return {
    url: running.url,
    store: where,
    close: async () => {
      await running.stop();
      await inspector.close();
    },
  };
}
