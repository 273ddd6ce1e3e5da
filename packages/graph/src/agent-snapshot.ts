import { interruptStateOf, isAgent, type Agent, type JsonObject, type Message, type RunJournal } from '@skein/core';
import type { GraphConfig } from './graph-types.js';
import type { InFlight } from './run-state.js';
import type { Activation } from './schedule.js';

/** The agent of a node (`undefined` for a nested orchestrator). */
export function agentOf(config: GraphConfig, nodeId: string): Agent | undefined {
  const target = config.nodes.get(nodeId)?.target;
  return isAgent(target) ? target : undefined;
}

/**
 * A node moving to `running` (or a waiting node, for the state document): its sources and, for an
 * agent, what the agent looks like now and where its stored history stands. `continues`: a stop left
 * the node there, and a resume goes on from this point. Only state documents read the agent's part:
 * without a session there is none to write, and nothing is copied.
 */
export function inFlightOf(
  activation: Activation,
  agent: Agent | undefined,
  journal: RunJournal,
  continues = false,
): InFlight {
  const mark = continues ? { continues: true as const } : {};
  if (!agent || !journal.persistent)
    return { sources: [...activation.sources], messages: undefined, state: undefined, ...mark };
  const checkpoint = journal.checkpointOf(agent);
  return {
    sources: [...activation.sources],
    messages: agent.messages.length,
    state: agent.state.get(),
    interruptState: interruptStateOf(agent),
    ...(checkpoint ? { checkpoint } : {}),
    ...mark,
  };
}

/** What an agent node looked like when the graph was built (`resetOnRevisit` goes back to it). */
export interface InitialAgent {
  messages: Message[];
  state: JsonObject;
  conversation: JsonObject;
}

/** Puts `agent` back as it was built: history, state and conversation-manager state. */
function resetAgent(agent: Agent, initial: InitialAgent): void {
  agent.messages = structuredClone(initial.messages);
  agent.state.replace(initial.state);
  agent.conversationManager.restoreFromSession(initial.conversation);
}

/** Back to the agent as the graph was built (`resetOnRevisit`), stored from scratch when the run has a session. */
export async function resetToBuilt(
  agent: Agent,
  initial: InitialAgent | undefined,
  journal: RunJournal,
): Promise<void> {
  if (!initial) return;
  resetAgent(agent, initial);
  await journal.resetAgent(agent);
}
