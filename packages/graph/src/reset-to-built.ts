import type { Agent, JsonObject, Message, RunJournal } from '@skein/core';

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
