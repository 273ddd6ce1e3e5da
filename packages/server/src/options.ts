import type { Agent, BudgetOption, InvocationState, MultiAgentBase, SessionManager } from '@skein/core';

/** Who sends a request: what `authorize` returns (a string, or an object with an `id`). */
export type Principal = string | { readonly id: string; readonly [key: string]: unknown };

/** What a factory gets to build the instance that runs one turn. */
export interface FactoryContext {
  /** The conversation (also the session id). */
  conversationId: string;
  /** The principal that sent the request (the one `authorize` returned; `'anonymous'` without `authorize`). */
  principal: Principal;
  /** A fresh session manager of this conversation: give it to the Agent, Graph or Swarm you build. */
  sessionManager: SessionManager;
}

/** Builds a fresh Agent on the session manager it is given. */
export type AgentFactory = (context: FactoryContext) => Agent | Promise<Agent>;

/** Builds a fresh Graph or Swarm (any core `MultiAgentBase`) on the session manager it is given. */
export type MultiAgentFactory = (context: FactoryContext) => MultiAgentBase | Promise<MultiAgentBase>;

/** The three kinds of route: `/v1/{kind}/...`. */
export type TargetKind = 'agents' | 'graphs' | 'swarms';

/** Per-turn invoke options the server passes to `invoke`/`stream` (a budget per conversation, values for tools). */
export interface RunOptions {
  budget?: BudgetOption;
  invocationState?: InvocationState;
}

/** Limits; every one has a default. */
export interface Limits {
  /** Largest request body, bytes (413). Default 1 MiB. */
  maxBodyBytes: number;
  /** Largest message: its text, or its content blocks as JSON, in characters (413). Default 32,000. */
  maxMessageChars: number;
  /** Turns (messages, answers, UI requests) one principal may start per minute (429 with retry-after). Default 60. */
  turnsPerMinute: number;
  /** Turns running at once in this process (503 with retry-after). Default 1,000. */
  maxConcurrentRuns: number;
  /** How long a request that asked to wait (`wait: true`) waits for the running turn, ms (then 409). Default 30,000. */
  waitMs: number;
  /** How long a finished turn's events stay available for re-joining, ms. Default 60,000. */
  replayRetentionMs: number;
  /** Most events kept per turn for re-joining; older ones are dropped (a re-join past them gets a `gap` event). Default 10,000. */
  maxEventsPerTurn: number;
  /** Interval of SSE keep-alive comments, ms. Default 15,000. */
  heartbeatMs: number;
  /** On stop (SIGTERM), how long running turns may go on before they are stopped at their next commit point, ms. Default 10,000. */
  stopGraceMs: number;
}

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** Agents by name: `POST /v1/agents/{name}/conversations/{id}/messages`. */
  agents?: Record<string, AgentFactory>;
  /** Graphs by name (built with `@skein/graph`). */
  graphs?: Record<string, MultiAgentFactory>;
  /** Swarms by name (built with `@skein/swarm`). */
  swarms?: Record<string, MultiAgentFactory>;
  /** The session manager of a conversation (any skein store: file, S3, SQL). Called for every request that needs one. */
  sessions: (conversationId: string) => SessionManager;
  /**
   * Who sends the request: a principal, or `undefined` (401). Throwing answers 403. Without it every
   * request is `'anonymous'` and `serve()` binds 127.0.0.1 only.
   */
  authorize?: (request: Request) => Principal | undefined | Promise<Principal | undefined>;
  /** Limits (each has a default). */
  limits?: Partial<Limits>;
  /** Options of each turn's `invoke` (e.g. a per-conversation `RunBudget`). Default none. */
  runOptions?: (context: FactoryContext) => RunOptions | Promise<RunOptions>;
  /** Receives errors the server answered with a 500 (the response itself tells nothing). Default: `console.error`. */
  onError?: (error: unknown, where: string) => void;
}

/** The defaults of {@link Limits}. */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxMessageChars: 32_000,
  turnsPerMinute: 60,
  maxConcurrentRuns: 1_000,
  waitMs: 30_000,
  replayRetentionMs: 60_000,
  maxEventsPerTurn: 10_000,
  heartbeatMs: 15_000,
  stopGraceMs: 10_000,
});

/** The id of a principal. */
function principalId(principal: Principal): string {
  return typeof principal === 'string' ? principal : principal.id;
}
