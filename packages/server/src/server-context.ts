/** What every route shares: the options, resolved limits, the run registry and the rate limiter. */
import type { AgentFactory, Limits, MultiAgentFactory, ServerOptions, TargetKind } from './options.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import type { RunRegistry } from './runs/run-registry.js';

export interface ServerContext {
  readonly options: ServerOptions;
  readonly limits: Limits;
  readonly registry: RunRegistry;
  readonly rateLimiter: RateLimiter;
  /** The factory of `kind`/`name`, if there is one. */
  factory(kind: TargetKind, name: string): AgentFactory | MultiAgentFactory | undefined;
  /** The session id of a principal's conversation (namespaced per principal when the server has `authorize`). */
  sessionIdOf(owner: string, conversationId: string): string;
  /** Set when the server stops: no new turns, streams are told. */
  stopping: boolean;
  /** Reports an error the client only saw as a 500 (or did not see: a turn's store failing after the answer). */
  report(error: unknown, where: string): void;
}
