import type {
  Agent,
  AuthorizeAnswer,
  BudgetOption,
  Guardrail,
  InputSubject,
  InvocationState,
  MemoryTarget,
  MultiAgentBase,
  Principal,
  SessionManager,
} from '@skein/core';

import type { EvaluateOptions } from '@skein/evals';

export type { Principal } from '@skein/core';

/**
 * What the evals routes run: `evaluate()`'s cases, scorers and run options. The target, where runs
 * are stored and where results go are the server's (the target routed, the server's store).
 */
export type EvalSet = Pick<
  EvaluateOptions,
  'cases' | 'scorers' | 'filter' | 'name' | 'concurrency' | 'repeats' | 'passAtK' | 'budget'
>;

/** What a factory gets to build the instance that runs one turn. */
export interface FactoryContext {
  /** The conversation, as the client names it. */
  conversationId: string;
  /** Its session in the store: the conversation id in the principal's namespace (see `sessionIdOf`). */
  sessionId: string;
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

/** What a request asks for, as the server routed it (decoded path, method): `authorize`'s second argument. */
export type ServerAction =
  | 'message'
  | 'answers'
  | 'ui'
  | 'agui'
  | 'stream'
  | 'pending'
  | 'read'
  | 'delete'
  | 'list'
  | 'cancel'
  /** `GET .../history` and `GET .../history/{step}`: read a graph's or swarm's steps. */
  | 'history'
  /** `POST .../fork`: a new conversation of the same principal from a step (the source is only read). */
  | 'fork'
  /** `POST /v1/{kind}/{name}/evals`: run the target's eval set; its cases become the principal's conversations. */
  | 'evaluate'
  /** `GET /v1/{kind}/{name}/evals`: the principal's past eval runs of the target. */
  | 'evaluations';

/** The routed request `authorize` decides on: never re-parse the URL, it may be percent-encoded. */
export interface RouteInfo {
  action: ServerAction;
  /** The `{kind}` segment as routed (an unknown kind is answered 404 after `authorize`). */
  kind: string;
  name: string;
  /** The `{id}` segment as routed (checked after `authorize`); for `agui` the body's `threadId`; absent for `list` and the evals routes. */
  conversationId?: string;
}

/** Per-turn invoke options the server passes to `invoke`/`stream` (a budget per conversation, values for tools). */
export interface RunOptions {
  budget?: BudgetOption;
  invocationState?: InvocationState;
  /**
   * Whose long-term memory the turn reads and writes (a target with `@skein/memory` attached). Default,
   * with `authorize`: `{ resource: <principal id>, thread: <conversation id> }`; without, none.
   */
  memory?: MemoryTarget;
}

/** Limits; every one has a default. */
export interface Limits {
  /** Largest request body, bytes (413). Default 1 MiB. */
  maxBodyBytes: number;
  /** Largest message: its text, or its content blocks as JSON, in characters (413). Default 32,000. */
  maxMessageChars: number;
  /** Turns (messages, answers, UI and AG-UI requests) one principal may start per minute (429 with retry-after). Default 60. */
  turnsPerMinute: number;
  /** Turns running at once in this process (503 with retry-after). Default 1,000. */
  maxConcurrentRuns: number;
  /** Deepest nesting of objects and arrays in a JSON body (400 beyond it, before anything validates it). Default 64. */
  maxJsonDepth: number;
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
  /**
   * The session manager of a session (any skein store: file, S3, SQL): a conversation's (its id in the
   * principal's namespace), or a principal's index of conversations. Called for every request that needs one.
   */
  sessions: (sessionId: string) => SessionManager;
  /**
   * Who sends the request: a principal, or `undefined` (401). Throwing answers 403 (its message is
   * shown). `route` is the request as the server routed it: decide on `route.action`, never on the
   * raw URL. Without it every request is `'anonymous'` and `serve()` binds 127.0.0.1 only.
   */
  authorize?: (request: Request, route: RouteInfo) => Principal | undefined | Promise<Principal | undefined>;
  /**
   * Who may answer a pending interrupt (approve a refund...), on every door that answers one
   * (`/answers`, the UI stream's approval parts): `false` refuses with 403 and stores nothing.
   * Default: whoever may send messages in the conversation.
   */
  authorizeAnswer?: AuthorizeAnswer;
  /**
   * Guardrails on every message a client sends (any door), checked before anything of it is stored:
   * a rewrite (e.g. PII redacted) is what the turn's record keeps and what the target is given; a
   * block answers 422 `guardrail-tripped` and stores nothing. Answers to interrupts are not messages
   * and are not checked. The target's own input guardrails still run on what it is given.
   */
  inputGuardrails?: readonly Guardrail<InputSubject>[];
  /** Limits (each has a default). */
  limits?: Partial<Limits>;
  /** Options of each turn's `invoke` (e.g. a per-conversation `RunBudget`). Default none. */
  runOptions?: (context: FactoryContext) => RunOptions | Promise<RunOptions>;
  /**
   * The eval set of a target (`@skein/evals`' cases and scorers), or `undefined` when it has none:
   * `POST /v1/{kind}/{name}/evals` runs it against the target, each case a conversation of the
   * principal, and keeps the run (see the README). Default: no target has one (404 `no-eval-set`).
   */
  evals?: (target: { kind: TargetKind; name: string }) => EvalSet | undefined | Promise<EvalSet | undefined>;
  /** Receives errors the server answered with a 500 (the response itself tells nothing). Default: `console.error`. */
  onError?: (error: unknown, where: string) => void;
}

/** The defaults of {@link Limits}. */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxMessageChars: 32_000,
  maxJsonDepth: 64,
  turnsPerMinute: 60,
  maxConcurrentRuns: 1_000,
  waitMs: 30_000,
  replayRetentionMs: 60_000,
  maxEventsPerTurn: 10_000,
  heartbeatMs: 15_000,
  stopGraceMs: 10_000,
});
