/** What `mcp.bench.ts` serves: one agent answering at once, conversations in memory (for `skein mcp serve` over stdio too). */
import { Agent, InMemorySessionRepository, RepositorySessionManager, type SessionManager } from '@skein/core';
import { ScriptedModel } from '@skein/core/testing';
import type { ServeMcpOptions } from '@skein/mcp';

/** The agent every row calls. */
export const echoAgent = (sessionManager?: SessionManager): Agent =>
  new Agent({
    name: 'echo',
    model: new ScriptedModel(['ok'], { loop: true, record: false }),
    ...(sessionManager ? { sessionManager } : {}),
  });

/** Fresh in-memory conversations for each server. */
export function benchOptions(): ServeMcpOptions {
  const repository = new InMemorySessionRepository();
  return {
    agents: { echo: ({ sessionManager }) => echoAgent(sessionManager) },
    sessions: (sessionId) => new RepositorySessionManager({ sessionId, repository }),
    limits: { turnsPerMinute: 1_000_000 }, // the door keeps the server's limits: 60 a minute would stop the bench
  };
}
