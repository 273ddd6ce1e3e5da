/**
 * What a served target holds while it serves: the card (read once from a target built on a
 * throwaway session), the task index, runner and request handler (made on first use), and the
 * call context of each request (principal, trace, the signal of a client that goes away).
 */
import type { AgentCard } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { InMemorySessionRepository, RepositorySessionManager, type SessionManager } from '@skein/core';
import { serverSdk, type ServerSdk } from '../wire/sdk.js';
import { isTraceparent, loadTraceApi } from '../wire/trace-context.js';
import { buildCard, PATHS } from './card.js';
import { principalId } from '@skein/core';
import type { A2AServerOptions, A2ATarget } from './options.js';
import { PRINCIPAL_STATE, SIGNAL_STATE, SkeinRequestHandler, TRACEPARENT_STATE } from './request-handler.js';
import { TaskDocs, TaskIndex } from './task-store.js';
import { TaskRunner } from './task-runner.js';

export interface Ready {
  sdk: ServerSdk;
  handler: SkeinRequestHandler;
  runner: TaskRunner;
  index: TaskIndex;
  resumed: number;
}

/** What one request handler needs: the card for its base URL, the call context, and a cancel for its stream. */
export type Serve = (r: Ready, card: AgentCard, ctx: ServerCallContext, cancel: () => void) => Promise<Response>;

function memorySessions(): (id: string) => SessionManager {
  const repository = new InMemorySessionRepository();
  return (sessionId) => new RepositorySessionManager({ sessionId, repository });
}

const REFUSED = 'Unauthorized: this agent does not accept the credentials of this request (or there are none).';

/** HTTP 401, with the body of the binding asked (a JSON-RPC error, or an HTTP+JSON error). */
function unauthorized(request: Request): Response {
  const jsonRpc = new URL(request.url).pathname.endsWith(PATHS.jsonRpc);
  const body = jsonRpc
    ? { jsonrpc: '2.0', id: null, error: { code: -32600, message: REFUSED } }
    : { error: { code: 401, status: 'UNAUTHENTICATED', message: REFUSED, details: [] } };
  return Response.json(body, { status: 401 });
}

/** The base URL of a request to the route at `marker` (what precedes it in the path). */
export function baseOf(url: string, marker: string): string {
  const u = new URL(url);
  const at = u.pathname.indexOf(marker);
  return `${u.origin}${at >= 0 ? u.pathname.slice(0, at) : ''}`;
}

export class Serving {
  readonly legacy: boolean;
  readonly #o: A2AServerOptions;
  readonly #sessions: (id: string) => SessionManager;
  #cardTarget: A2ATarget | undefined;
  #lastBase: string;
  #ready: Promise<Ready> | undefined;

  constructor(options: A2AServerOptions) {
    this.#o = options;
    this.legacy = options.legacyCompat !== false;
    this.#sessions = options.sessions ?? memorySessions();
    this.#lastBase = options.card?.url ?? 'http://localhost';
  }

  /** The card as served at `base` (remembered as the base of the card the handler reports). */
  cardAt(base: string): AgentCard {
    this.#lastBase = this.#o.card?.url ?? base;
    this.#cardTarget ??= this.#o.agent(
      new RepositorySessionManager({ sessionId: 'a2a-card', repository: new InMemorySessionRepository() }),
    );
    return buildCard(this.#cardTarget, this.#lastBase, this.#o.card ?? {}, this.legacy);
  }

  /** Loads the SDK and the task index, and resumes the tasks a restart cut (once). */
  start(): Promise<Ready> {
    this.#ready ??= (async () => {
      const [sdk] = await Promise.all([serverSdk(), loadTraceApi()]);
      const index = new TaskIndex(this.#sessions(this.#o.indexSessionId ?? 'a2a-tasks'));
      await index.load();
      const docs = new TaskDocs(this.#sessions);
      const runner = new TaskRunner({
        build: this.#o.agent,
        docs,
        index,
        sdk,
        authorizeAnswer: this.#o.authorizeAnswer,
      });
      const card = (): AgentCard => this.cardAt(this.#lastBase);
      const handler = new SkeinRequestHandler({ card, runner, index, docs, sdk });
      const resumed = await runner.resumeAll();
      return { sdk, handler, runner, index, resumed };
    })();
    this.#ready.catch(() => {
      this.#ready = undefined;
    });
    return this.#ready;
  }

  /** The call context of a request, or the 401 answer for a caller `authorize` refuses. */
  async context(request: Request, r: Ready, signal: AbortSignal): Promise<ServerCallContext | Response> {
    const authorize = this.#o.authorize;
    const principal = authorize ? await authorize(request) : 'anonymous';
    if (principal === undefined) return unauthorized(request);
    const state = new Map<string, unknown>([
      ['headers', Object.fromEntries(request.headers)],
      [SIGNAL_STATE, signal],
      [PRINCIPAL_STATE, principal],
    ]);
    const tp = request.headers.get('traceparent');
    if (isTraceparent(tp)) state.set(TRACEPARENT_STATE, tp);
    const version = request.headers.get('A2A-Version');
    return new r.sdk.server.ServerCallContext({
      user: { isAuthenticated: authorize !== undefined, userName: principalId(principal) },
      ...(version ? { requestedVersion: version } : {}),
      state,
    });
  }

  /** Answers a request to the route at `marker` with `run`. */
  async serve(request: Request, marker: string, run: Serve): Promise<Response> {
    const r = await this.start();
    const card = this.cardAt(baseOf(request.url, marker));
    const abort = new AbortController();
    const ctx = await this.context(request, r, abort.signal);
    if (ctx instanceof Response) return ctx;
    return run(r, card, ctx, () => abort.abort());
  }

  /** Waits for the runs in progress, then releases the index session. */
  async close(): Promise<void> {
    if (!this.#ready) return;
    const r = await this.#ready;
    await r.runner.settle();
    await r.index.close();
  }
}
