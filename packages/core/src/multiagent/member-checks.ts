import type { Agent } from '../agent/agent.js';
import { ConfigurationError } from '../errors/configuration-errors.js';

/** Refuses an agent that holds its own session manager inside an orchestrator. */
export function assertNoOwnSessionManager(agent: Agent, orchestrator: string): void {
  if (agent.sessionManager) {
    throw new ConfigurationError(
      `Agent ${JSON.stringify(agent.name)} has its own sessionManager, but it is a member of a ${orchestrator}. ` +
        `Create the agent without one and give the session manager to the ${orchestrator} instead: it persists every member.`,
    );
  }
}
