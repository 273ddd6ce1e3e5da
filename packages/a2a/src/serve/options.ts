import type { AuthorizeAnswer, Principal, Runnable, SessionManager } from '@skein/core';

export type { Principal } from '@skein/core';

/**
 * Decides who a request comes from; `undefined` refuses it (HTTP 401). The same hook as
 * `@skein/server`'s, so one function serves both. Tasks belong to the principal that created them.
 */
export type Authorize = (request: Request) => Principal | undefined | Promise<Principal | undefined>;

/** What serves a task: an Agent, a Graph, a Swarm (anything `MultiAgentBase`): core's `Runnable`. */
export type A2ATarget = Runnable;

/** What the agent card says beyond what is read from the target. */
export interface A2ACardOptions {
  /** Default: the agent's name, or the orchestrator's id. */
  name?: string;
  /** Default: the agent's description, or a sentence naming the orchestrator's members. */
  description?: string;
  /** The public base URL the card advertises. Default: the URL the card was fetched from. */
  url?: string;
  /** Default `'1.0.0'`. */
  version?: string;
  /** Skills to list instead of the ones read from the tools or members. */
  skills?: { id: string; name: string; description: string; tags?: string[]; examples?: string[] }[];
  /** The organization behind the agent. */
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  /**
   * Declares HTTP bearer authentication in the card (scheme `bearer`, required for every call): give it
   * when `authorize` reads `Authorization: Bearer <token>`.
   */
  bearerAuth?: { description?: string; format?: string };
}

/** Options of {@link createA2AApp} and {@link serveA2A}. */
export interface A2AServerOptions {
  /**
   * Builds what serves one task, on the task's session manager (give it to the Agent, or to the
   * Graph's `setSessionManager` / the Swarm's `sessionManager`). Called for every message of a task,
   * and once with a throwaway in-memory session to read the card.
   */
  agent: (sessionManager: SessionManager) => A2ATarget;
  /** The session of a task (and of the task index). Default: in memory (lost on restart). */
  sessions?: (sessionId: string) => SessionManager;
  /** The card's name, description, URL, skills... (the rest is read from the target). */
  card?: A2ACardOptions;
  /** Who calls; default: everyone, as principal `anonymous`. */
  authorize?: Authorize;
  /**
   * Who may answer what a task asks (an approval): a caller's message on an `input-required` task is
   * refused (nothing stored, nothing run) when this returns `false`. The same rule as
   * `@skein/server`'s `authorizeAnswer`. Default: the caller that owns the task.
   */
  authorizeAnswer?: AuthorizeAnswer;
  /** Largest request body in bytes (HTTP 413 before it is read) and deepest JSON nesting (a malformed request). */
  limits?: { maxBodyBytes?: number; maxJsonDepth?: number };
  /** The session holding the index of tasks (owner, context, state). Default `a2a-tasks`. */
  indexSessionId?: string;
  /** Serve peers on A2A 0.3 too (the SDK's compatibility layer). Default true. */
  legacyCompat?: boolean;
}
