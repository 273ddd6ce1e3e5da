import type { HookProvider } from '../hooks/hook-registry.js';
import type { MultiAgentSession } from './multi-agent-session.js';

/**
 * Persists an agent (as a hook provider) or an orchestrator (through `openMultiAgent`).
 * Given to a standalone `Agent`, or to a Graph or Swarm — never to an agent inside one.
 */
export interface SessionManager extends HookProvider {
  readonly sessionId: string;
  /** Opens the session of an orchestrator with id `multiAgentId` and kind `type` (`graph`, `swarm`). */
  openMultiAgent(multiAgentId: string, type: string): Promise<MultiAgentSession>;
  /** Optional: gives up this writer's claim on the session (its lock or lease), so another writer may take it. */
  close?(): Promise<void>;
}
