import type { Agent } from '../agent/agent.js';
import { closeDanglingToolUses } from '../conversation/tool-pairs.js';
import type { Message } from '../types/messages.js';
import { checkSessionId } from './session-codec.js';
import type { SessionRepository } from './session-repository.js';
import { nowIso, type SessionMessage } from './session-types.js';

/**
 * Persists one agent under one id of a session: restores it, appends each new message, syncs its
 * state. Shared by the standalone session manager and orchestrator sessions.
 */
export class AgentPersistence {
  readonly #repo: SessionRepository;
  readonly #sessionId: string;
  readonly storeId: string;
  #nextId = 0;
  #latest: SessionMessage | undefined;

  constructor(repo: SessionRepository, sessionId: string, storeId: string) {
    checkSessionId(storeId, 'agent id');
    this.#repo = repo;
    this.#sessionId = sessionId;
    this.storeId = storeId;
  }

  /**
   * Loads the stored agent into `agent` (state, conversation-manager state, messages after the
   * removed ones), or stores `agent` as it is when nothing is stored. A history that ended inside a
   * tool call gets an error result for the orphaned toolUse, so the agent can continue.
   */
  async restore(agent: Agent): Promise<void> {
    const stored = await this.#repo.readAgent(this.#sessionId, this.storeId);
    if (!stored) {
      const now = nowIso();
      await this.#repo.createAgent(this.#sessionId, {
        agent_id: this.storeId,
        state: agent.state.get(),
        conversation_manager_state: agent.conversationManager.getState(),
        created_at: now,
        updated_at: now,
      });
      this.#nextId = 0;
      for (const message of agent.messages) await this.append(message);
      return;
    }
    agent.state.replace(stored.state);
    const prefix = agent.conversationManager.restoreFromSession(stored.conversation_manager_state) ?? [];
    const offset = agent.conversationManager.removedMessageCount;
    const rows = await this.#repo.listMessages(this.#sessionId, this.storeId, { offset });
    this.#nextId = offset + rows.length;
    this.#latest = rows[rows.length - 1];
    const messages: Message[] = [...prefix];
    for (const row of rows) messages.push(row.redact_message ?? row.message);
    agent.messages = messages;
    const closing = closeDanglingToolUses(messages, 'Tool call interrupted: the session ended before the tool finished.');
    if (closing) {
      messages.push(closing);
      await this.append(closing);
    }
  }

  /** Stores `message` as the next message of the agent. */
  async append(message: Message): Promise<void> {
    const now = nowIso();
    const row: SessionMessage = { message, message_id: this.#nextId, redact_message: null, created_at: now, updated_at: now };
    await this.#repo.createMessage(this.#sessionId, this.storeId, row);
    this.#nextId++;
    this.#latest = row;
  }

  /** Writes the agent's state and conversation-manager state. */
  async sync(agent: Agent): Promise<void> {
    const stored = await this.#repo.readAgent(this.#sessionId, this.storeId);
    const now = nowIso();
    await this.#repo.updateAgent(this.#sessionId, {
      agent_id: this.storeId,
      state: agent.state.get(),
      conversation_manager_state: agent.conversationManager.getState(),
      created_at: stored?.created_at ?? now,
      updated_at: now,
    });
  }

  /** Replaces what is restored for the latest stored message with `redacted`. */
  async redactLatest(redacted: Message): Promise<void> {
    if (!this.#latest) throw new Error('There is no stored message to redact yet.');
    this.#latest = { ...this.#latest, redact_message: redacted, updated_at: nowIso() };
    await this.#repo.updateMessage(this.#sessionId, this.storeId, this.#latest);
  }

  /** Stores `agent` as it is now, replacing whatever history was stored under this id. */
  async reset(agent: Agent): Promise<void> {
    const stored = await this.#repo.readAgent(this.#sessionId, this.storeId);
    if (!stored) return this.restore(agent);
    await this.#repo.deleteMessages(this.#sessionId, this.storeId, 0);
    this.#nextId = 0;
    this.#latest = undefined;
    for (const message of agent.messages) await this.append(message);
    await this.sync(agent);
  }
}
